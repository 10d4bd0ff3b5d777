"""The end-to-end example of docs/text.md runs as written and says what it claims."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_docs_example_runs():
    text = open(os.path.join(ROOT, 'docs', 'text.md')).read()
    code = re.search(r'```python\n(.*?)```', text, re.S).group(1)
    ns = {}
    exec(compile(code, 'docs/text.md', 'exec'), ns)  # includes its own assert against gz.text.embed
    sims = ns['vecs'] @ ns['vecs'].T
    assert 0.7 < sims[0, 1] < 0.8 and abs(sims[0, 2]) < 0.1
