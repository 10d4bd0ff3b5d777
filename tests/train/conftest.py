import pytest

from .helpers import run_recipe


@pytest.fixture(scope='session')
def tiny_run(tmp_path_factory):
    """A finished 2-epoch tiny run of the Fashion-MNIST recipe (its folder)."""
    out = tmp_path_factory.mktemp('tiny') / 'run'
    run_recipe('--epochs', '2', '--out', str(out))
    return out
