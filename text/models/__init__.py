"""Text model families, one file a family; importing this package registers them all."""
