"""GluonCV's gluoncv.loss (filled in)."""
