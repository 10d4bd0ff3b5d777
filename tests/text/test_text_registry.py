"""The text families in the registry and on the command line."""
import gluonzoo as gz

FAMILIES = ['awd_lstm_lm_1150', 'awd_lstm_lm_600', 'bert_12_768_12', 'bert_12_768_12_classifier',
            'bert_12_768_12_qa', 'bert_24_1024_16', 'bert_6_384_12', 'bert_6_384_12_classifier',
            'big_rnn_lm_2048_512', 'distilbert_6_768_12', 'elmo_2x1024_128_2048cnn_1xhighway',
            'elmo_2x2048_256_2048cnn_1xhighway', 'elmo_2x4096_512_2048cnn_2xhighway', 'ernie_12_768_12', 'gpt2_117m',
            'gpt2_345m', 'roberta_12_768_12', 'roberta_24_1024_16', 'standard_lstm_lm_1500', 'standard_lstm_lm_200',
            'standard_lstm_lm_650', 'transformer_de_en_128', 'transformer_en_de_512']
#: the text archs without any weights record (GluonNLP published none for them, gluonzoo trained none)
NO_RECORDS = ['bert_12_768_12_classifier', 'bert_12_768_12_qa', 'gpt2_117m', 'gpt2_345m']


def test_list_task_text(capsys):
    assert gz.list_models(task='text') == FAMILIES
    assert gz.list_models(task='text', pretrained=True) == [n for n in FAMILIES if n not in NO_RECORDS]
    from gluonzoo.cli import main
    assert main(['list', '--task', 'text']) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in FAMILIES) and 'all_minilm_l6_v2' in out


def test_pretrained_shapes_are_protected():
    import pytest
    with pytest.raises(ValueError, match='trained with vocab_size=30522; vocab_size=100 changes parameter shapes'):
        gz.get_model('bert_6_384_12', pretrained=True, vocab_size=100)


def test_too_long_inputs_are_refused():
    import mxnet as mx
    import pytest
    from gluonzoo.errors import BadInputError
    bert = gz.get_model('bert_12_768_12', vocab_size=20, units=16, hidden_size=32, num_layers=1, num_heads=2,
                        max_length=8)
    bert.initialize()
    bert(mx.nd.ones((1, 8)), mx.nd.zeros((1, 8)))
    with pytest.raises(BadInputError, match='9 tokens exceed max_length=8'):
        bert(mx.nd.ones((1, 9)), mx.nd.zeros((1, 9)))
    nmt = gz.get_model('transformer_en_de_512', vocab_size=20, units=16, hidden_size=32, num_layers=1, num_heads=2,
                       max_tgt_length=4)
    nmt.initialize()
    with pytest.raises(BadInputError, match='5 tokens exceed max_length=4'):
        nmt(mx.nd.ones((1, 3)), mx.nd.ones((1, 5)))
