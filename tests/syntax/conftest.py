import pathlib
import sys

# The corpus helpers (control_flow_loader, control_flow_harness) are plain modules beside the tests.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
