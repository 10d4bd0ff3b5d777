"""What GluonCV-facing code asks of the installed package itself: `check_version(min_version)` compares against
the GluonCV release whose API gluonzoo.cv provides (0.10.5), since GluonCV scripts pass GluonCV version numbers
(`gcv.utils.check_version('0.6.0')`), which gluonzoo's own version (0.1) would always fail."""
from ..filesystem import check_version as _check

#: the GluonCV release whose public API gluonzoo.cv mirrors (cv/gluoncv_api.json)
GLUONCV_API_VERSION = '0.10.5'


def check_version(min_version, warning_only=False):
    """AssertionError (or a warning, with `warning_only`) when `min_version` is newer than GluonCV 0.10.5."""
    _check(min_version, warning_only, version=GLUONCV_API_VERSION, what='GluonCV API (gluonzoo.cv)')
