"""Benchmarks of the companion, each against a naive baseline run in the same command
(``python -m bench``; ``scripts/bench.sh`` sets up the .venv and runs it)."""
