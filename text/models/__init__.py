"""Text model families; importing a family file registers its builders."""
from . import bert  # noqa: F401
