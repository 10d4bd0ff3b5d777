"""What the benchmark scripts share (a package, so `make bench`'s scripts/bench/*.py loop does not run it)."""
