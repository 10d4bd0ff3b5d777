"""What docs/from_gluonnlp.md says of GluonNLP names that gluonzoo.nlp provides differently or not at all (data,
read by scripts/docs/migration.py; fnmatch patterns over GluonNLP's dotted names)."""

#: {GluonNLP name: why ours differs} for names that are provided
DIFFERS = {
}

#: [(pattern, why)] for names that are not provided, first match wins
NOT_PROVIDED = [
]

#: [(pattern, issue)] names another open issue of this milestone adds (GluonNLP's tasks: 29)
OTHER_ISSUES = [
    ('gluonnlp.data.conll*', 29), ('gluonnlp.data.CoNLL*', 29), ('gluonnlp.data.question_answering*', 29),
    ('gluonnlp.data.SQuAD', 29), ('gluonnlp.data.bert.squad*', 29), ('gluonnlp.data.xlnet*', 29),
    ('gluonnlp.data.intent_slot*', 29), ('gluonnlp.data.ATISDataset', 29), ('gluonnlp.data.SNIPSDataset', 29),
    ('gluonnlp.data.word_embedding_evaluation*', 29), ('gluonnlp.model.train.embedding*', 29),
    ('gluonnlp.model.train.FasttextEmbeddingModel', 29), ('gluonnlp.model.train.CSREmbeddingModel', 29),
]
