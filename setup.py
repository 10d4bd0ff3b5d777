"""One distribution, `gluonzoo`: zoo/ is the import root, vision/ and text/ its subpackages.

Versions come from constraints.txt, the one pin file the Makefile installs with too. MXNet is an extra because
`[gpu]` must install mxnet-cu117 *instead of* mxnet: `pip install gluonzoo[cpu]` or `gluonzoo[gpu]`.
"""
import os
import re

from setuptools import find_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))
# cv/ and nlp/ are GluonCV's and GluonNLP's module layouts over vision/ and text/ (docs/from_gluoncv.md)
PACKAGE_DIR = {'gluonzoo': 'zoo', 'gluonzoo.vision': 'vision', 'gluonzoo.text': 'text', 'gluonzoo.cv': 'cv',
               'gluonzoo.nlp': 'nlp'}


def pinned(*names):
    pins = {}
    with open(os.path.join(HERE, 'constraints.txt')) as f:
        for line in f:
            m = re.match(r'^([A-Za-z0-9_.\-]+)==(\S+)', line.strip())
            if m:
                pins[m.group(1).lower()] = m.group(0)
    return [pins[n.lower()] for n in names]


setup(
    name='gluonzoo',
    version='0.1.0',
    description='A Gluon model zoo and toolkit for computer vision and NLP on Apache MXNet 1.9',
    python_requires='>=3.11,<3.12',
    package_dir=PACKAGE_DIR,
    packages=list(PACKAGE_DIR) + [f'{root}.{sub}' for root, folder in PACKAGE_DIR.items()
                                  for sub in find_packages(os.path.join(HERE, folder))],
    package_data={'gluonzoo.vision': ['assets/*', 'weights/*.params'], 'gluonzoo.text': ['assets/*'],
                  'gluonzoo.cv': ['gluoncv_api.json'], 'gluonzoo.nlp': ['gluonnlp_api.json']},
    install_requires=pinned('numpy', 'opencv-python-headless', 'onnx', 'onnxruntime', 'ml_dtypes', 'scipy',
                            'tqdm', 'portalocker', 'safetensors', 'sentencepiece', 'tokenizers', 'pycocotools',
                            'matplotlib', 'sacremoses', 'av'),
    extras_require={
        'cpu': pinned('mxnet'),
        'gpu': pinned('mxnet-cu117'),
        'test': pinned('pytest', 'torch', 'torchvision', 'sacrebleu', 'rdata', 'xarray', 'hypothesis',
                       'pytest-xdist', 'pynose'),
    },
    entry_points={'console_scripts': ['gluonzoo = gluonzoo.cli:main']},
)
