"""(peers venv) Attributes of GluonCV objects built without arguments, printed as JSON: each job is
[module, class name, [attribute, ...]]; one list of attribute values per job."""
import importlib
import json
import sys

out = []
for module, name, attrs in json.loads(sys.argv[2]):
    obj = getattr(importlib.import_module(module), name)()
    out.append([getattr(obj, a) for a in attrs])
print(json.dumps(out[0] if len(out) == 1 else out))
