"""A registered checkpoint's file by name, and emptying the cache of them (GluonCV's model_store calls).

    from gluonzoo.model_files import get_model_file, purge
    path = get_model_file('resnet50_v1b')        # fetched and verified into the cache, its path returned
    purge()                                      # removes every *.params file of the cache folder
"""
import os

from . import store
from .registry import get_weights


def get_model_file(name, tag=None, root=None):
    """The path of the verified weights file of registered model `name` (its default checkpoint, or `tag`: a tag
    or the sha1 hashtag), fetched into `root` (default $GLUONZOO_HOME/models) when it is not there yet."""
    return store.fetch(get_weights(name, tag), root=root)


def purge(root=None):
    """Delete every .params file in the cache folder `root` (default $GLUONZOO_HOME/models); other files stay."""
    folder = store.cache_root(root)
    if not os.path.isdir(folder):
        return
    for f in os.listdir(folder):
        if f.endswith('.params'):
            os.remove(os.path.join(folder, f))
