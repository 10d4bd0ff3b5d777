"""gluoncv.data.transforms.video (gluonzoo.vision.transforms.video: GluonCV's video transforms, its draws)."""
from gluonzoo.vision.transforms.video import *  # noqa: F401,F403
from gluonzoo.vision.transforms.video import __all__  # noqa: F401
