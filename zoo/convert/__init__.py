"""Foreign checkpoints -> Gluon parameters.

`load_torch_checkpoint` and `load_safetensors` read files into name -> numpy array dicts;
`torch_to_gluon` pairs a torch state_dict with a Gluon net's parameters, layer by layer;
`read_darknet` reads a darknet .cfg + .weights pair into arrays per cfg layer.
"""
from .darknet import read_weights as read_darknet
from .mapping import convert_torch_file, torch_to_gluon
from .torch_pickle import load_torch_checkpoint


def load_safetensors(path):
    """Read a .safetensors file into a dict of name -> numpy array (the safetensors package's numpy API)."""
    from safetensors.numpy import load_file
    from ..errors import BadInputError
    try:
        return load_file(str(path))
    except FileNotFoundError:
        raise BadInputError(f'safetensors file {path} does not exist') from None
    except Exception as e:  # safetensors raises its own SafetensorError for a bad header or truncated data
        raise BadInputError(f'{path} is not a readable safetensors file: {e}') from None


__all__ = ['load_torch_checkpoint', 'load_safetensors', 'torch_to_gluon', 'convert_torch_file', 'read_darknet']
