"""MXNet's EvalMetric protocol for gluonzoo's metrics: `update(...)` per batch, `get()` -> `(name, value)` or
`(names, values)` in the form GluonCV's metric of the same name returns (what GluonCV's scripts and MXNet's
estimator read), `get_name_value()` -> [(name, value), ...], `reset()`. `results()` is gluonzoo's spelling of the
same numbers: one {name: value} dict.

Subclasses set their attributes, then call `super().__init__(name)` (EvalMetric's resets), and define `reset`,
`update`, `results` and `get`.
"""
import mxnet as mx


class Metric(mx.metric.EvalMetric):
    """An EvalMetric whose global statistics are its statistics (one accumulation, reset by reset())."""

    def __init__(self, name, **kwargs):
        super().__init__(name, **kwargs)

    def results(self):
        raise NotImplementedError

    def get(self):
        """(names, values) of results(), in its order (a single pair unpacked)."""
        out = self.results()
        if len(out) == 1:
            (name, value), = out.items()
            return name, value
        return list(out), list(out.values())

    def reset_local(self):
        self.reset()

    def get_global(self):
        return self.get()

    def get_global_name_value(self):
        return self.get_name_value()
