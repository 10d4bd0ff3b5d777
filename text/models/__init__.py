"""Text model families; importing a family file registers its builders."""
from . import bert  # noqa: F401
from . import lstm_lm  # noqa: F401
from . import elmo  # noqa: F401
from . import transformer  # noqa: F401
from . import gpt2  # noqa: F401
