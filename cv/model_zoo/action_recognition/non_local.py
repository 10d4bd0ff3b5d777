"""gluoncv.model_zoo.action_recognition.non_local: the non-local block of the I3D nets (Wang et al., 2018)."""
from gluonzoo.vision.models.action.non_local import NonLocal, build_nonlocal_block  # noqa: F401

__all__ = ['NonLocal', 'build_nonlocal_block']
