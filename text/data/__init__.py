"""Text data: batchify functions, bucketing samplers and readers for the offline corpora."""
from .batchify import Dict, List, NamedTuple, Pad, Stack, Tuple  # noqa: F401
from .sampler import (FixedBucketSampler, SortedBucketSampler, const_width_buckets, exp_width_buckets,  # noqa: F401
                      linear_width_buckets)
