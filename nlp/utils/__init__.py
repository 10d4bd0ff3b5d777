"""gluonnlp.utils: gluonzoo.text.training's helpers."""
from gluonzoo import aliases
from gluonzoo.text.training import (Parallel, Parallelizable, check_version, clip_grad_global_norm, glob,
                                    grad_global_norm, load_parameters, load_states, mkdir, remove, save_parameters,
                                    save_states, set_seed)

__all__ = ['Parallel', 'Parallelizable', 'check_version', 'clip_grad_global_norm', 'glob', 'grad_global_norm',
           'load_parameters', 'load_states', 'mkdir', 'remove', 'save_parameters', 'save_states', 'set_seed']
__getattr__ = aliases.children(__name__)
