"""gluonnlp.utils: gluonzoo.text.training's helpers and gluonzoo.parallel's thread pool."""
from gluonzoo import aliases
from gluonzoo.parallel import Parallel, Parallelizable
from gluonzoo.text.training import (check_version, clip_grad_global_norm, glob, grad_global_norm, load_parameters,
                                    load_states, mkdir, remove, save_parameters, save_states, set_seed)

__all__ = ['Parallel', 'Parallelizable', 'check_version', 'clip_grad_global_norm', 'glob', 'grad_global_norm',
           'load_parameters', 'load_states', 'mkdir', 'remove', 'save_parameters', 'save_states', 'set_seed']
__getattr__ = aliases.children(__name__)
