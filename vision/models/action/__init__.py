"""Video action recognition, GluonCV 0.10.5's `action-recognition` models, one file a family. Frame models over
segments: TSN on VGG16, Inception V1/V3 and ResNet V1b bodies (tsn.py). Inflated 3D nets: I3D on ResNet (with
non-local blocks: non_local.py), Inception V1 and V3, and the slow-only ResNet (i3d_*.py, their shared base
i3d_base.py). Clip nets: SlowFast, R(2+1)D, C3D, P3D (their shared base clipnet.py). Clips are (N, 3, T, H, W);
TSN's frames (N * segments, 3, H, W). base.py holds GluonCV's sha1s, published top-1, the records factory and what
every family shares (the class count, the views check, the Kinetics start)."""
from . import c3d, i3d_inceptionv1, i3d_inceptionv3, i3d_resnet, i3d_slow, p3d, r2plus1d, slowfast, tsn  # noqa: F401
