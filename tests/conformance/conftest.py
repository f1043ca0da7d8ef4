"""Put this folder on sys.path so the test modules can import the ``_cases`` helpers."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
