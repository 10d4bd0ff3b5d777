"""GluonNLP 0.10's recurrent-cell helpers, with its signatures: `LSTMPCellWithClip`, MXNet's contrib LSTMPCell with
the cell and projection clips of ELMo and BigRNN (the step is lstm_lm.lstmp_step, the one LSTMP step gluonzoo's
unrolled models run too), and `RNNCellLayer`, which runs any cell over a whole sequence like a gluon RNN layer.

>>> import mxnet as mx
>>> cell = LSTMPCellWithClip(8, 4, input_size=3, cell_clip=1.0, projection_clip=0.5)
>>> cell.initialize()
>>> out, states = cell(mx.nd.ones((2, 3)), cell.begin_state(2))
>>> out.shape, [s.shape for s in states]
((2, 4), [(2, 4), (2, 8)])
"""
import mxnet as mx
from mxnet.gluon import Block
from mxnet.gluon.contrib.rnn import LSTMPCell

from ...errors import BadInputError
from .lstm_lm import lstmp_step

__all__ = ['LSTMPCellWithClip', 'RNNCellLayer']


class LSTMPCellWithClip(LSTMPCell):
    """An LSTMP cell whose cell state is clipped to +-cell_clip and projection to +-projection_clip (None: no clip).
    `cell(inputs (N, C), [r, c])` -> (r, [r, c]); unroll, begin_state and state_info are the gluon cell's."""

    def __init__(self, hidden_size, projection_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 h2r_weight_initializer=None, i2h_bias_initializer='zeros', h2h_bias_initializer='zeros',
                 input_size=0, cell_clip=None, projection_clip=None, prefix=None, params=None):
        super().__init__(hidden_size, projection_size, i2h_weight_initializer, h2h_weight_initializer,
                         h2r_weight_initializer, i2h_bias_initializer, h2h_bias_initializer, input_size,
                         prefix=prefix, params=params)
        self._cell_clip, self._projection_clip = cell_clip, projection_clip

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, h2r_weight, i2h_bias, h2h_bias):
        # pylint: disable=arguments-differ
        r, c = lstmp_step(F, f't{self._counter}_', inputs, states[0], states[1],
                          (i2h_weight, h2h_weight, h2r_weight, i2h_bias, h2h_bias), self._hidden_size,
                          self._projection_size, self._cell_clip, self._projection_clip)
        return r, [r, c]


class RNNCellLayer(Block):
    """`rnn_cell` run over a whole sequence in `layout` ('TNC' or 'NTC'): `layer(inputs)` -> outputs, or with
    `states` (the cell's, one NDArray for a one-state cell) -> (outputs, states)."""

    def __init__(self, rnn_cell, layout='TNC', **kwargs):
        super().__init__(**kwargs)
        if layout not in ('TNC', 'NTC'):
            raise BadInputError(f'RNNCellLayer: layout={layout!r}; use "TNC" or "NTC"')
        self.cell = rnn_cell
        self._layout = layout

    def forward(self, inputs, states=None):  # pylint: disable=arguments-differ
        batch = inputs.shape[self._layout.index('N')]
        given = states is not None
        if not given:
            states = self.cell.begin_state(batch, ctx=inputs.context)
        if isinstance(states, mx.nd.NDArray):
            states = [states]
        for state, info in zip(states, self.cell.state_info(batch)):
            if state.shape != info['shape']:
                raise BadInputError(f'RNNCellLayer: a state of shape {state.shape} where the cell expects '
                                    f'{info["shape"]} for a batch of {batch}')
        outputs, states = self.cell.unroll(inputs.shape[self._layout.index('T')], inputs, list(states),
                                           layout=self._layout, merge_outputs=True)
        return (outputs, states) if given else outputs
