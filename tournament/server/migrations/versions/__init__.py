"""One module per schema version, each naming the version it follows."""
