"""C3D (Tran et al., arXiv:1412.0767): parameter-compatible with GluonCV 0.10.5's `c3d_kinetics400`.

Eight 3x3x3 convolutions (with bias, ReLU) and five max pools, then three Dense layers. fc6 takes the flattened
512 x 1 x 4 x 4 map of pool5, which fixes the clip: 16 frames (every 2nd of 32) at 112x112 (T 16-31 and H, W
96-127 give the same map). Structural names are GluonCV's (`conv1` ... `conv5b`, `fc6`, `fc7`, `fc8`).
"""
from mxnet import init
from mxnet.gluon import nn

from ....registry import register_model
from .base import action_weights, resolve_nclass
from .clipnet import ClipNet, pooled
from .r2plus1d import PREPROCESS

#: (conv name, channels) and the pool after each group: (kernel, stride, pad) in T, H, W
_CONVS = [[('conv1', 64)], [('conv2', 128)], [('conv3a', 256), ('conv3b', 256)], [('conv4a', 512), ('conv4b', 512)],
          [('conv5a', 512), ('conv5b', 512)]]
_POOLS = [((1, 2, 2), (1, 2, 2), (0, 0, 0))] + [((2, 2, 2), (2, 2, 2), (0, 0, 0))] * 3 + \
         [((2, 2, 2), (2, 2, 2), (0, 1, 1))]
_POOL5 = (1, 4, 4)  # the T, H, W of pool5's map that fc6 (8192 = 512 x 1 x 4 x 4 inputs) is trained on


# -- model --------------------------------------------------------------------------------------------------------
class C3D(ClipNet):
    """GluonCV's C3D: conv1 (64) pool1 (1x2x2), conv2 (128) pool2, conv3a/b (256) pool3, conv4a/b (512) pool4,
    conv5a/b (512) pool5 (2x2x2, padded in H and W), then the pool5 map averaged over num_segments x num_crop clips a
    video, fc6 (4096) ReLU dropout, fc7 (4096) ReLU dropout, fc8 (`nclass`); Dense layers start normal (`init_std`).
    `feat_ext=True` returns fc6's features (after its ReLU and dropout). `ctx` is accepted; the net comes
    uninitialized (GluonCV's builder initializes it with MSRAPrelu: `net.initialize(mx.init.MSRAPrelu())`)."""
    head_name = 'fc8'
    feat_dim = 8192

    def __init__(self, nclass, dropout_ratio=0.5, num_segments=1, num_crop=1, feat_ext=False, init_std=0.001,
                 ctx=None, **kwargs):
        super().__init__(num_segments, num_crop, feat_ext, **kwargs)
        channels = 3
        with self.name_scope():
            for i, (group, (kernel, stride, pad)) in enumerate(zip(_CONVS, _POOLS)):
                for name, out in group:
                    setattr(self, name, nn.Conv3D(out, 3, padding=1, in_channels=channels))
                    channels = out
                setattr(self, f'pool{i + 1}', nn.MaxPool3D(kernel, stride, pad))
            normal = init.Normal(sigma=init_std)
            self.fc6 = nn.Dense(4096, in_units=self.feat_dim, weight_initializer=normal)
            self.fc7 = nn.Dense(4096, in_units=4096, weight_initializer=normal)
            self.fc8 = nn.Dense(nclass, in_units=4096, weight_initializer=normal)
            self.dropout = nn.Dropout(dropout_ratio)
            self.relu = nn.Activation('relu')

    def clip_problem(self, frames, height, width):
        sizes = [frames, height, width]
        for kernel, stride, pad in _POOLS:
            sizes = [pooled(s, k, st, p) for s, k, st, p in zip(sizes, kernel, stride, pad)]
        if tuple(sizes) != _POOL5:
            return (f'takes 16x112x112 clips (T 16-31, H and W 96-127: its fc6 is trained on pool5\'s 512x1x4x4 map; '
                    f'these give {"x".join(map(str, [512] + sizes))})')
        return None

    def hybrid_forward(self, F, x):
        for i, group in enumerate(_CONVS):
            for name, _ in group:
                x = self.relu(getattr(self, name)(x))
            x = getattr(self, f'pool{i + 1}')(x)
        x = self.dropout(self.relu(self.fc6(self.consensus(x))))
        if self.feat_ext:
            return x
        return self.fc8(self.dropout(self.relu(self.fc7(x))))


# -- weights records (GluonCV 0.10.5 model_store.py, its model-zoo table) ------------------------------------------
_PAPER = 'https://arxiv.org/abs/1412.0767'


@register_model(weights=action_weights('c3d_kinetics400', 79634576, (1, 3, 16, 112, 112), _PAPER, PREPROCESS),
                task='action-recognition', protected=('nclass',), test_input=(1, 3, 16, 112, 112))
def c3d_kinetics400(nclass=400, num_segments=1, num_crop=1, feat_ext=False, dropout_ratio=0.5, init_std=0.001,
                    classes=None):
    """C3D, Kinetics-400 (arXiv:1412.0767); the one clip size it takes is 16x112x112."""
    return C3D(resolve_nclass(nclass, classes, 400), dropout_ratio, num_segments, num_crop, feat_ext, init_std)
