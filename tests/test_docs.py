import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_model_zoo_table_is_generated_from_the_registry():
    p = subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'docs', 'model_zoo.py'), '--check'],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr


def test_readme_quick_start_shows_the_two_commands_first():
    text = open(os.path.join(ROOT, 'README.md')).read()
    quick = text.split('## Quick start', 1)[1]
    commands = [line.strip() for line in quick.splitlines() if line.strip().startswith('make ')]
    assert commands[:2] == ['make demo', 'make test']
