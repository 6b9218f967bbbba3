"""Tournament runner speed: ``python benchmarks/tournament.py [options]`` runs
``tournament_speed.py`` (see there), with this folder taken off the import path so that
``tournament`` is the package, not this script."""

import runpy
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != here]
runpy.run_path(str(here / "tournament_speed.py"), run_name="__main__")
