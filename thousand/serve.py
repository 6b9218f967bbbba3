"""``python -m thousand.serve SPEC``: serve a Python bot over the JSON-lines protocol, the
command the bot protocol documents (the code is :mod:`thousand.table.served_bot`)."""

from thousand.table.served_bot import main

if __name__ == "__main__":
    main()
