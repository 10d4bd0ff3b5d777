"""GluonNLP 0.10's word embedding evaluation datasets (gluonnlp.data.word_embedding_evaluation): word similarity
(samples [word1, word2, score as float]; `min` and `max` the score range) and word analogy (samples
[a, b, c, d] words) test sets, downloaded from their original hosts (WordSim353 and MEN from GluonNLP's
mirror at $MXNET_GLUON_REPO/gluon/dataset/<namespace>/) into $MXNET_HOME/datasets/<name> and checked against
GluonNLP's sha1 tables (text/data/hosted.py), then read with CorpusDataset as GluonNLP does.
"""
import os

from mxnet.gluon.data import SimpleDataset

from ...errors import BadInputError
from . import hosted
from .datasets import CorpusDataset, register

__all__ = ['WordSimilarityEvaluationDataset', 'WordAnalogyEvaluationDataset', 'WordSim353', 'MEN', 'RadinskyMTurk',
           'RareWords', 'SimLex999', 'SimVerb3500', 'SemEval17Task2', 'BakerVerb143', 'YangPowersVerb130',
           'GoogleAnalogyTestSet', 'BiggerAnalogyTestSet']

GOOGLEANALOGY_CATEGORIES = ['capital-common-countries', 'capital-world', 'currency', 'city-in-state', 'family',
                            'gram1-adjective-to-adverb', 'gram2-opposite', 'gram3-comparative', 'gram4-superlative',
                            'gram5-present-participle', 'gram6-nationality-adjective', 'gram7-past-tense',
                            'gram8-plural', 'gram9-plural-verbs']

# BATS 3.0: category code -> its name (the file is '<group>/<code> <name>.txt')
BATS_CATEGORIES = {
    'I01': '[noun - plural_reg]', 'I02': '[noun - plural_irreg]', 'I03': '[adj - comparative]',
    'I04': '[adj - superlative]', 'I05': '[verb_inf - 3pSg]', 'I06': '[verb_inf - Ving]', 'I07': '[verb_inf - Ved]',
    'I08': '[verb_Ving - 3pSg]', 'I09': '[verb_Ving - Ved]', 'I10': '[verb_3pSg - Ved]',
    'D01': '[noun+less_reg]', 'D02': '[un+adj_reg]', 'D03': '[adj+ly_reg]', 'D04': '[over+adj_reg]',
    'D05': '[adj+ness_reg]', 'D06': '[re+verb_reg]', 'D07': '[verb+able_reg]', 'D08': '[verb+er_irreg]',
    'D09': '[verb+tion_irreg]', 'D10': '[verb+ment_irreg]',
    'E01': '[country - capital]', 'E02': '[country - language]', 'E03': '[UK_city - county]',
    'E04': '[name - nationality]', 'E05': '[name - occupation]', 'E06': '[animal - young]',
    'E07': '[animal - sound]', 'E08': '[animal - shelter]', 'E09': '[things - color]', 'E10': '[male - female]',
    'L01': '[hypernyms - animals]', 'L02': '[hypernyms - misc]', 'L03': '[hyponyms - misc]',
    'L04': '[meronyms - substance]', 'L05': '[meronyms - member]', 'L06': '[meronyms - part]',
    'L07': '[synonyms - intensity]', 'L08': '[synonyms - exact]', 'L09': '[antonyms - gradable]',
    'L10': '[antonyms - binary]'}
BATS_GROUPS = {'I': '1_Inflectional_morphology', 'D': '2_Derivational_morphology', 'E': '3_Encyclopedic_semantics',
               'L': '4_Lexicographic_semantics'}


def bats_path(code):
    """The path in BATS_3.0.zip of category `code` ('I01'...'L10')."""
    return f'BATS_3.0/{BATS_GROUPS[code[0]]}/{code} {BATS_CATEGORIES[code]}.txt'


# sha1 of each file of BATS_3.0.zip, by category code (the path is derived from the code)
_BATS_SHA1 = {
    'I01': 'cfcba2835edf81abf11b84defd2f4daa3ca0b0bf', 'I02': '44dbc56432b79ff5ce2ef80b6840a8aa916524f9',
    'I03': 'dc530918e98b467b8102a7dab772a66d3db32a73', 'I04': '6c6fdfb6c733bc9b298d95013765163f42faf6fb',
    'I05': '39fa47ec7238ddb3f9818bc586f23f55b55418d8', 'I06': '8fabeb9f5af6c3e7154a220b7034bbe5b900c36f',
    'I07': 'aa04df95aa2edb436cbcc03c7b15bc492ece52d6', 'I08': '5f22d8121a5043ce76d3b6b53a49a7bb3fe33920',
    'I09': '377777c1e793c638e72c010228156d01f916708e', 'I10': '051c0c3c633e10900f827991dac14cf76da7f022',
    'D01': '5d6839e9d34ee1e9fddb5bbf6516cf6420b85d8d', 'D02': '80b82227a0d5f7377f1e8cebe28c582bfeb1afb5',
    'D03': '223e120bd61b3116298a253f392654c15ad5a39a', 'D04': 'a56f8685af489bcd09c36f864eba1657ce0a7c28',
    'D05': '5da99b1f1781ecfb4a1a7448c715abf07451917b', 'D06': '4c5e1796091fade503fbf0bfc2fae2c7f98b5dd2',
    'D07': 'a6218162bc257d98e875fc667c23edfac59e19fd', 'D08': '9a4236c3bbc23903e101a42fb5ad6e15e552fadf',
    'D09': '3ab0153926d5cf890cf08a4077da6d9946133874', 'D10': '2a012b87a9a60e128e064c5fe24b60f99e16ddce',
    'E01': '9890315d3c4e6a38b8ae5fc441858564be3d3dc4', 'E02': 'ef08a00e8ff7802811ace8f00fabac41b5d03678',
    'E03': '754957101c93a25b438785bd4458404cd9010259', 'E04': '71a6562c34fb6154992a7c3e499375fcc3529c96',
    'E05': 'a9a6f9f1af959aef83106f3dbd6bed16dfe9a3ea', 'E06': '12d5b51c7b76b9136eadc719abc8cf4806c67b73',
    'E07': '91991b007a35f45bd42bd7d0d465c6f8311df911', 'E08': 'e5af11e216db392986ba0cbb597d861066c29adb',
    'E09': 'd30b2eb2fc7a60f19afda7c54582e30f6fe28f51', 'E10': '247a588671bc1da8f615e14076bd42573d24b4b3',
    'L01': '4b5c4dabe2c9c038fafee85d8d3958f1b1dec987', 'L02': '83d5ecad78d9de28fd70347731c7ee5918ba43c9',
    'L03': 'a8319856ae2f76b4d4c030ac7e899bb3a06a9a48', 'L04': 'c081e1104e1b40725063f4b39d13d1ec12496bfd',
    'L05': 'bcbf05f3be76cef990a74674a9999a0bb9790a07', 'L06': '2f9bdcc74b881e1c54b391c9a6e7ea6243b3accc',
    'L07': '8fa287860b096bef004fe0f6557e4f686e3da81a', 'L08': 'a17c591961bddefd97ae5df71f9d1559ce7900f4',
    'L09': '117fbb86504c192b33a5469f2f282e741d9c016d', 'L10': '3cde2f2c2a0606777b8d7d11d099f316416a7224',
}
# sha1 of each file of semeval2017-task2.zip, by path under SemEval17-Task2/
_SEMEVAL17_SHA1 = {
    'README.txt': 'ad02d4c22fff8a39c9e89a92ba449ec78750af6b',
    'task2-scorer.jar': '145ef73ce955656d59e3b67b41f8152e8ee018d8',
    'test/subtask1-monolingual/data/de.test.data.txt': '6fc840f989d2274509549e472a68fb88dd2e149f',
    'test/subtask1-monolingual/data/en.test.data.txt': '05293fcbd80b2f4aad9b6518ce1a546ad8f61f33',
    'test/subtask1-monolingual/data/es.test.data.txt': '552904b5988f9951311290ca8fa0441dd4351d4b',
    'test/subtask1-monolingual/data/fa.test.data.txt': '29d5970feac5982961bd6ab621ba31f83d3bff77',
    'test/subtask1-monolingual/data/it.test.data.txt': 'c95fe2be8fab37e9c70610117bdedc48a0a8e95c',
    'test/subtask1-monolingual/keys/de.test.gold.txt': 'c51463460495a242cc726d41713c5e00b66fdd18',
    'test/subtask1-monolingual/keys/en.test.gold.txt': '2d2bb2ed41308cc60e7953cc9036f7dc89141b48',
    'test/subtask1-monolingual/keys/es.test.gold.txt': 'a5842ff17fe3847d15414924826a8eb236018bcc',
    'test/subtask1-monolingual/keys/fa.test.gold.txt': '717bbe035d8ae2bad59416eb3dd4feb7238b97d4',
    'test/subtask1-monolingual/keys/it.test.gold.txt': 'a342b950109c73afdc86a7829e17c1d8f7c482f0',
    'test/subtask2-crosslingual/data/de-es.test.data.txt': 'ef92b1375762f68c700e050d214d3241ccde2319',
    'test/subtask2-crosslingual/data/de-fa.test.data.txt': '17aa103981f3193960309bb9b4cc151acaf8136c',
    'test/subtask2-crosslingual/data/de-it.test.data.txt': 'eced15e8565689dd67605a82a782d19ee846222a',
    'test/subtask2-crosslingual/data/en-de.test.data.txt': '5cb69370a46385a7a3d37cdf2018744be77203a0',
    'test/subtask2-crosslingual/data/en-es.test.data.txt': '402f7fed52b60e915fb1be49f935395488cf7a7b',
    'test/subtask2-crosslingual/data/en-fa.test.data.txt': '9bdddbbde3da755f2a700bddfc3ed1cd9324ad48',
    'test/subtask2-crosslingual/data/en-it.test.data.txt': 'd3b37aac79ca10311352309ef9b172f686ecbb80',
    'test/subtask2-crosslingual/data/es-fa.test.data.txt': 'a2959aec346c26475a4a6ad4d950ee0545f2381e',
    'test/subtask2-crosslingual/data/es-it.test.data.txt': 'ca627c30143d9f82a37a8776fabf2cee226dd35c',
    'test/subtask2-crosslingual/data/it-fa.test.data.txt': 'a03d79a6ce7b798356b53b4e85dbe828247b97ef',
    'test/subtask2-crosslingual/keys/de-es.test.gold.txt': '7564130011d38daad582b83135010a2a58796df6',
    'test/subtask2-crosslingual/keys/de-fa.test.gold.txt': 'c9e23c2e5e970e7f95550fbac3362d85b82cc569',
    'test/subtask2-crosslingual/keys/de-it.test.gold.txt': 'b74cc2609b2bd2ceb5e076f504882a2e0a996a3c',
    'test/subtask2-crosslingual/keys/en-de.test.gold.txt': '428dfdad2a144642c13c24b845e6b7de6bf5f663',
    'test/subtask2-crosslingual/keys/en-es.test.gold.txt': '1dd7ab08a10552486299151cdd32ed19b56db682',
    'test/subtask2-crosslingual/keys/en-fa.test.gold.txt': '17451ac2165aa9b695dae9b1aba20eb8609fb400',
    'test/subtask2-crosslingual/keys/en-it.test.gold.txt': '5041c0b84a603ed85aa0a5cbe4b1c34f69a2fa7c',
    'test/subtask2-crosslingual/keys/es-fa.test.gold.txt': '8c09a219670dc32ab3864078bf0c28a287accabc',
    'test/subtask2-crosslingual/keys/es-it.test.gold.txt': 'b1cdd13209354cc2fc2f4226c80aaa85558daf4a',
    'test/subtask2-crosslingual/keys/it-fa.test.gold.txt': 'e0b560bb1d2db39ce45e841c8aad611734dc94f1',
    'trial/subtask1-monolingual/data/de.trial.data.txt': 'dd071fd90f59bec8d271a447d86ee2e462941f52',
    'trial/subtask1-monolingual/data/en.trial.data.txt': 'e8e5add0850b3dec07f102be26b8791a5e9bbbcf',
    'trial/subtask1-monolingual/data/es.trial.data.txt': '8956c78ff9ceae1d923a57816e55392c6a7dfc49',
    'trial/subtask1-monolingual/data/fa.trial.data.txt': '2f7c4247cde0d918b3508e90f6b49a1f5031c81b',
    'trial/subtask1-monolingual/data/it.trial.data.txt': 'c11e0b5b55f94fc97c7b11fa455e71b071be879f',
    'trial/subtask1-monolingual/keys/de.trial.gold.txt': 'ce5567b1accf3eb07da53229dfcb2a8a1dfac380',
    'trial/subtask1-monolingual/keys/en.trial.gold.txt': '693cb5928e807c79e39136dc0981dadca7832ae6',
    'trial/subtask1-monolingual/keys/es.trial.gold.txt': '8241ca66bf5ba55f77607e9bcfae8e34902715d8',
    'trial/subtask1-monolingual/keys/fa.trial.gold.txt': 'd30701a93c8c5500b82ac2334ed8410f9a23864b',
    'trial/subtask1-monolingual/keys/it.trial.gold.txt': 'bad225573e1216ba8b35429e9fa520a20e8ce031',
    'trial/subtask1-monolingual/output/de.trial.sample.output.txt': 'f85cba9f6690d61736623c16e620826b09384aa5',
    'trial/subtask1-monolingual/output/en.trial.sample.output.txt': 'f85cba9f6690d61736623c16e620826b09384aa5',
    'trial/subtask1-monolingual/output/es.trial.sample.output.txt': 'f85cba9f6690d61736623c16e620826b09384aa5',
    'trial/subtask1-monolingual/output/fa.trial.sample.output.txt': 'f85cba9f6690d61736623c16e620826b09384aa5',
    'trial/subtask1-monolingual/output/it.trial.sample.output.txt': 'f85cba9f6690d61736623c16e620826b09384aa5',
    'trial/subtask2-crosslingual/data/de-es.trial.data.txt': 'c27c8977d8d4434fdc3e59a7b0121d87e0a03237',
    'trial/subtask2-crosslingual/data/de-fa.trial.data.txt': '88a6f6dd1bba309f7cae7281405e37f442782983',
    'trial/subtask2-crosslingual/data/de-it.trial.data.txt': 'ebdab0859f3b349fa0120fc8ab98be3394f0d73d',
    'trial/subtask2-crosslingual/data/en-de.trial.data.txt': '128d1a460fe9836b66f0fcdf59455b02edb9f258',
    'trial/subtask2-crosslingual/data/en-es.trial.data.txt': '508c5dde8ffcc32ee3009a0d020c7c96a338e1d1',
    'trial/subtask2-crosslingual/data/en-fa.trial.data.txt': '1a3640eb5facfe15b1e23a07183a2e62ed80c7d9',
    'trial/subtask2-crosslingual/data/en-it.trial.data.txt': '141c83d591b0292016583d9c23a2cc5514a006aa',
    'trial/subtask2-crosslingual/data/es-fa.trial.data.txt': 'a0a548cd698c389ee80c34d6ec72abed5f1625e5',
    'trial/subtask2-crosslingual/data/es-it.trial.data.txt': '8d42bed8a43ff93d26ca95794758d9392ca707ed',
    'trial/subtask2-crosslingual/data/it-fa.trial.data.txt': '9c85223f1f734de61c28157df0ce417bb0537803',
    'trial/subtask2-crosslingual/keys/de-es.trial.gold.txt': '126c92b2fb3b8f2784dd4ae2a4c52b02a87a8196',
    'trial/subtask2-crosslingual/keys/de-fa.trial.gold.txt': '1db6201c2c8f19744c39dbde8bd4a803859d64c1',
    'trial/subtask2-crosslingual/keys/de-it.trial.gold.txt': '5300bf2ead163ff3981fb41ec5d0e291c287c9e0',
    'trial/subtask2-crosslingual/keys/en-de.trial.gold.txt': 'd4f5205de929bb0c4020e1502a3f2204b5accd51',
    'trial/subtask2-crosslingual/keys/en-es.trial.gold.txt': '3237e11c3a0d9c0f5d583f8dc1d025b97a1f8bfe',
    'trial/subtask2-crosslingual/keys/en-fa.trial.gold.txt': 'c14de7bf326907336a02d499c9b92ab229f3f4f8',
    'trial/subtask2-crosslingual/keys/en-it.trial.gold.txt': '3c0276c4b4e7a6d8a618bbe1ab0f30ad7b07929c',
    'trial/subtask2-crosslingual/keys/es-fa.trial.gold.txt': '359f69e9dfd6411a936baa3392b8f05c398a7707',
    'trial/subtask2-crosslingual/keys/es-it.trial.gold.txt': '44090607fabe5a26926a384e521ef1317f6f00d0',
    'trial/subtask2-crosslingual/keys/it-fa.trial.gold.txt': '97b09ffa11803023c2143fd4a4ac4bbc9775e645',
    'trial/subtask2-crosslingual/output/de-es.trial.sample.output.txt': 'a0735361a692be357963959728dacef85ea08240',
    'trial/subtask2-crosslingual/output/de-fa.trial.sample.output.txt': 'b71166d8615e921ee689cefc81419398d341167f',
    'trial/subtask2-crosslingual/output/de-it.trial.sample.output.txt': 'b71166d8615e921ee689cefc81419398d341167f',
    'trial/subtask2-crosslingual/output/en-de.trial.sample.output.txt': 'b71166d8615e921ee689cefc81419398d341167f',
    'trial/subtask2-crosslingual/output/en-es.trial.sample.output.txt': 'b71166d8615e921ee689cefc81419398d341167f',
    'trial/subtask2-crosslingual/output/en-fa.trial.sample.output.txt': 'a0735361a692be357963959728dacef85ea08240',
    'trial/subtask2-crosslingual/output/en-it.trial.sample.output.txt': 'a0735361a692be357963959728dacef85ea08240',
    'trial/subtask2-crosslingual/output/es-fa.trial.sample.output.txt': 'b71166d8615e921ee689cefc81419398d341167f',
    'trial/subtask2-crosslingual/output/es-it.trial.sample.output.txt': 'b71166d8615e921ee689cefc81419398d341167f',
    'trial/subtask2-crosslingual/output/it-fa.trial.sample.output.txt': 'a0735361a692be357963959728dacef85ea08240',
}
_YANG_WORDS1 = ('brag concoct divide build end accentuate demonstrate solve consume position swear furnish merit '
                 'submit seize spin enlarge swing circulate recognize resolve prolong tap block arrange twist hail '
                 'dissipate approve impose hasten rap lean make show sell weave refer distribute twist drain depict '
                 'build hail call swing yield split challenge hinder welcome need refer finance expect terminate yell '
                 'swell rotate seize approve supply clip divide advise complain want twist swing make hinder build '
                 'express resolve bruise swing catch swear request arrange relieve move weave swear forget supervise '
                 'situate explain ache evaluate recognize dilute hasten scorn swear arrange discard list stamp market '
                 'boil sustain resolve dissipate anger approve research request boast furnish refine acknowledge clean '
                 'lean postpone hail remember scrape sweat highlight seize levy alter refer empty flush shake imitate '
                 'correlate refer').split()
_YANG_WORDS2 = ('boast devise split construct terminate highlight show figure eat situate vow supply deserve yield '
                 'take twirl swell sway distribute acknowledge settle sustain knock hinder plan curl acclaim disperse '
                 'support levy accelerate tap rest earn publish market intertwine direct commercialize intertwine tap '
                 'recognize organize address refer bounce seize crush yield assist recognize deserve explain build '
                 'deserve postpone boast curl situate request scorn consume twist figure furnish boast deserve fasten '
                 'crash trade yield propose figure examine split break consume explain levy study hinder swell print '
                 'think resolve concoct isolate boast spin terminate succeed market permit yield describe explain '
                 'arrange figure weave sweeten tap lower publicize isolate approve boast distribute concoct yield '
                 'impress sustain distribute concoct grate show judge hail lean spin restore refer believe highlight '
                 'carry situate spin swell highlight levy lean').split()


BATS_CHECKSUMS = {bats_path(code): sha1 for code, sha1 in _BATS_SHA1.items()}
SEMEVAL17_CHECKSUMS = {'SemEval17-Task2/' + rel: sha1 for rel, sha1 in _SEMEVAL17_SHA1.items()}


def _check(value, allowed, what, arg):
    if value not in allowed:
        raise BadInputError(f'{what}: {arg}={value!r} is not one of {list(allowed)}')


class _Dataset(SimpleDataset):
    """Downloads `_archive_file` = (name, sha1) from `_url`, or GluonNLP's mirror when `_namespace` is set,
    unless every file of `_checksums` ({path: sha1}) is already under root; samples are `_get_data()`."""
    _url = None
    _archive_file = (None, None)
    _checksums = None
    _verify_ssl = True
    _namespace = None

    def __init__(self, root):
        self.root = os.path.expanduser(root)
        os.makedirs(self.root, exist_ok=True)
        self._download_data()
        super().__init__(self._get_data())

    def _download_data(self):
        name = self._archive_file[0]
        url = hosted.repo_file_url(self._namespace, name) if self._namespace is not None else self._url
        hosted.fetch(url, self.root, self._archive_file, self._checksums, what=type(self).__name__)

    def _path(self, rel):
        return os.path.join(self.root, *rel.split('/'))

    def _get_data(self):
        raise NotImplementedError


class WordSimilarityEvaluationDataset(_Dataset):
    """Base of the word similarity datasets: samples [word1, word2, score], the score a float."""

    def __init__(self, root):
        super().__init__(root=root)
        self._cast_score_to_float()

    def _get_data(self):
        raise NotImplementedError

    def _cast_score_to_float(self):
        self._data = [[row[0], row[1], float(row[2])] for row in self._data]


@register(segment=['all', 'similarity', 'relatedness'])
class WordSim353(WordSimilarityEvaluationDataset):
    """WordSim-353 (Finkelstein et al. 2002) in Agirre et al.'s similarity / relatedness split; 'all' is both,
    without duplicates, sorted. Scores 0-10. root: default $MXNET_HOME/datasets/wordsim353."""
    _url = 'http://alfonseca.org/pubs/ws353simrel.tar.gz'
    _namespace = 'gluon/dataset/ws353'
    _archive_file = ('ws353simrel.tar.gz', '1b9ca7f4d61682dea0004acbd48ce74275d5bfff')
    _checksums = {
        'wordsim353_sim_rel/wordsim353_agreed.txt': '1c9f77c9dd42bcc09092bd32adf0a1988d03ca80',
        'wordsim353_sim_rel/wordsim353_annotator1.txt': '674d5a9263d099a5128b4bf4beeaaceb80f71f4e',
        'wordsim353_sim_rel/wordsim353_annotator2.txt': '9b79a91861a4f1075183b93b89b73e1b470b94c1',
        'wordsim353_sim_rel/wordsim_relatedness_goldstandard.txt': 'c36c5dc5ebea9964f4f43e2c294cd620471ab1b8',
        'wordsim353_sim_rel/wordsim_similarity_goldstandard.txt': '4845df518a83c8f7c527439590ed7e4c71916a99'}
    _data_file = {'relatedness': ('wordsim_relatedness_goldstandard.txt', 'c36c5dc5ebea9964f4f43e2c294cd620471ab1b8'),
                  'similarity': ('wordsim_similarity_goldstandard.txt', '4845df518a83c8f7c527439590ed7e4c71916a99')}
    min = 0
    max = 10

    def __init__(self, segment='all', root=hosted.default_root('wordsim353')):
        if segment is not None:
            _check(segment, ['all', 'relatedness', 'similarity'], 'WordSim353', 'segment')
        self.segment = segment
        super().__init__(root=root)

    def _get_data(self):
        parts = [part for part in ('relatedness', 'similarity') if self.segment in (part, 'all')]
        paths = [self._path('wordsim353_sim_rel/' + self._data_file[part][0]) for part in parts]
        return sorted({tuple(row) for row in CorpusDataset(paths)})


@register(segment=['full', 'dev', 'test'])
class MEN(WordSimilarityEvaluationDataset):
    """MEN (Bruni et al. 2014), lemma form with the part-of-speech suffix ('-n') removed. segment: 'full', 'dev'
    or 'test'. Scores 0-50. root: default $MXNET_HOME/datasets/men."""
    _url = 'https://staff.fnwi.uva.nl/e.bruni/resources/MEN.tar.gz'
    _namespace = 'gluon/dataset/men'
    _archive_file = ('MEN.tar.gz', '3c4af1b7009c1ad75e03562f7f7bc5f51ff3a31a')
    _checksums = {
        'MEN/MEN_dataset_lemma_form.dev': '55d2c9675f84dc661861172fc89db437cab2ed92',
        'MEN/MEN_dataset_lemma_form.test': 'c003c9fddfe0ce1d38432cdb13863599d7a2d37d',
        'MEN/MEN_dataset_lemma_form_full': 'e32e0a0fa09ccf95aa898bd42011e84419f7fafb',
        'MEN/MEN_dataset_natural_form_full': 'af9c2ca0033e2561676872eed98e223ee6366b82',
        'MEN/agreement/agreement-score.txt': 'bee1fe16ce63a198a12a924ceb50253c49c7b45c',
        'MEN/agreement/elias-men-ratings.txt': 'd180252df271de96c8fbba6693eaa16793e0f7f0',
        'MEN/agreement/marcos-men-ratings.txt': 'dbfceb7d88208c2733861f27d3d444c15db18519',
        'MEN/instructions.txt': 'e6f69c7338246b404bafa6e24257fc4a5ba01baa',
        'MEN/licence.txt': 'f57c6d61814a0895236ab99c06b61b2611430f92'}
    _segment_file = {'full': 'MEN/MEN_dataset_lemma_form_full', 'dev': 'MEN/MEN_dataset_lemma_form.dev',
                     'test': 'MEN/MEN_dataset_lemma_form.test'}
    min = 0
    max = 50

    def __init__(self, segment='dev', root=hosted.default_root('men')):
        _check(segment, list(self._segment_file), 'MEN', 'segment')
        self.segment = segment
        super().__init__(root=root)

    def _get_data(self):
        rows = CorpusDataset(self._path(self._segment_file[self.segment]))
        return [[row[0][:-2], row[1][:-2], row[2]] for row in rows]


@register
class RadinskyMTurk(WordSimilarityEvaluationDataset):
    """Radinsky et al.'s Mechanical Turk word relatedness set (a csv). Scores 1-5. root: default
    $MXNET_HOME/datasets/radinskymturk."""
    _url = 'http://www.kiraradinsky.com/files/Mtruk.csv'
    _archive_file = ('Mtruk.csv', '14959899c092148abba21401950d6957c787434c')
    _checksums = {'Mtruk.csv': '14959899c092148abba21401950d6957c787434c'}
    min = 1
    max = 5

    def __init__(self, root=hosted.default_root('radinskymturk')):
        super().__init__(root=root)

    def _get_data(self):
        return list(CorpusDataset(self._path(self._archive_file[0]), tokenizer=lambda s: s.split(',')))


@register
class RareWords(WordSimilarityEvaluationDataset):
    """Stanford Rare Word similarity (Luong et al. 2013). Scores 0-10. root: default
    $MXNET_HOME/datasets/rarewords."""
    _url = 'http://www-nlp.stanford.edu/~lmthang/morphoNLM/rw.zip'
    _archive_file = ('rw.zip', 'bf9c5959a0a2d7ed8e51d91433ac5ebf366d4fb9')
    _checksums = {'rw/rw.txt': 'bafc59f099f1798b47f5bed7b0ebbb933f6b309a'}
    min = 0
    max = 10

    def __init__(self, root=hosted.default_root('rarewords')):
        super().__init__(root=root)

    def _get_data(self):
        return [row[:3] for row in CorpusDataset(self._path('rw/rw.txt'))]


@register
class SimLex999(WordSimilarityEvaluationDataset):
    """SimLex-999 (Hill et al. 2015), the SimLex999 score column. Scores 0-10. root: default
    $MXNET_HOME/datasets/simlex999."""
    _url = 'https://www.cl.cam.ac.uk/~fh295/SimLex-999.zip'
    _archive_file = ('SimLex-999.zip', '0d3afe35b89d60acf11c28324ac7be10253fda39')
    _checksums = {'SimLex-999/README.txt': 'f54f4a93213b847eb93cc8952052d6b990df1bd1',
                  'SimLex-999/SimLex-999.txt': '0496761e49015bc266908ea6f8e35a5ec77cb2ee'}
    min = 0
    max = 10
    score = 'SimLex999'

    def __init__(self, root=hosted.default_root('simlex999')):
        super().__init__(root=root)

    def _get_data(self):
        rows = list(CorpusDataset(self._path('SimLex-999/SimLex-999.txt')))[1:]  # the first row is the header
        return [[row[0], row[1], row[3]] for row in rows]


@register
class SimVerb3500(WordSimilarityEvaluationDataset):
    """SimVerb-3500 (Gerz et al. 2016). segment: 'full', 'dev' (500 pairs) or 'test' (3000). Scores 0-10. root:
    default $MXNET_HOME/datasets/simverb3500."""
    _url = 'https://www.aclweb.org/anthology/attachments/D16-1235.Attachment.zip'
    _archive_file = ('D16-1235.Attachment.zip', '7bcfff115ca3e4c909b3763a2ba35e83992f2a2f')
    _checksums = {
        'data/README.txt': 'fc2645b30a291a7486015c3e4b51d8eb599f7c7e',
        'data/SimVerb-3000-test.txt': '4cddf11f0fbbb3b94958e69b0614be5d125ec607',
        'data/SimVerb-3500-ratings.txt': '133d45daeb0e73b9da26930741455856887ac17b',
        'data/SimVerb-3500-stats.txt': '79a0fd7c6e03468742d276b127d70478a6995681',
        'data/SimVerb-3500.txt': '0e79af04fd42f44affc93004f2a02b62f155a9ae',
        'data/SimVerb-3520-annotator-ratings.csv': '9ff69cec9c93a1abba7be1404fc82d7f20e6633b',
        'data/SimVerb-500-dev.txt': '3ae184352ca2d9f855ca7cb099a65635d184f75a'}
    _segment_file = {'full': 'data/SimVerb-3500.txt', 'test': 'data/SimVerb-3000-test.txt',
                     'dev': 'data/SimVerb-500-dev.txt'}
    min = 0
    max = 10

    def __init__(self, segment='full', root=hosted.default_root('simverb3500')):
        _check(segment, list(self._segment_file), 'SimVerb3500', 'segment')
        self.segment = segment
        super().__init__(root=root)

    def _get_data(self):
        return [[row[0], row[1], row[3]] for row in CorpusDataset(self._path(self._segment_file[self.segment]))]


@register(segment=['trial', 'test'])
class SemEval17Task2(WordSimilarityEvaluationDataset):
    """SemEval-2017 Task 2, subtask 1 (monolingual word similarity): segment 'trial' or 'test', language 'en',
    'es', 'de', 'it' or 'fa'. Scores 0-5. root: default $MXNET_HOME/datasets/semeval17task2."""
    _url = 'http://alt.qcri.org/semeval2017/task2/data/uploads/semeval2017-task2.zip'
    _archive_file = ('semeval2017-task2.zip', 'b29860553f98b057303815817dfb60b9fe79cfba')
    _checksums = SEMEVAL17_CHECKSUMS
    _datatemplate = 'SemEval17-Task2/{segment}/subtask1-monolingual/data/{language}.{segment}.data.txt'
    _keytemplate = 'SemEval17-Task2/{segment}/subtask1-monolingual/keys/{language}.{segment}.gold.txt'
    min = 0
    max = 5
    segments = ('trial', 'test')
    languages = ('en', 'es', 'de', 'it', 'fa')

    def __init__(self, segment='trial', language='en', root=hosted.default_root('semeval17task2')):
        _check(segment, self.segments, 'SemEval17Task2', 'segment')
        _check(language, self.languages, 'SemEval17Task2', 'language')
        self.language = language
        self.segment = segment
        super().__init__(root=root)

    def _get_data(self):
        fmt = dict(segment=self.segment, language=self.language)
        pairs = CorpusDataset(self._path(self._datatemplate.format(**fmt)))
        keys = CorpusDataset(self._path(self._keytemplate.format(**fmt)))
        return [[p[0], p[1], k[0]] for p, k in zip(pairs, keys)]


@register
class BakerVerb143(WordSimilarityEvaluationDataset):
    """Baker, Reichart and Korhonen's 143 verb pairs (EMNLP 2014), the averaged score column. Scores 0-1. root:
    default $MXNET_HOME/datasets/verb143."""
    _url = 'https://ie.technion.ac.il/~roiri/papers/EMNLP14.zip'
    _archive_file = ('EMNLP14.zip', '1862e52af784e76e83d472532a75eb797fb8b807')
    _checksums = {'verb_similarity dataset.txt': 'd7e4820c7504cbae56898353e4d94e6408c330fc'}
    min = 0
    max = 1

    def __init__(self, root=hosted.default_root('verb143')):
        super().__init__(root=root)

    def _get_data(self):
        return [[row[0], row[1], row[12]] for row in CorpusDataset(self._path('verb_similarity dataset.txt'))]


@register
class YangPowersVerb130(WordSimilarityEvaluationDataset):
    """Yang and Powers' 130 verb pairs (2006), built in: nothing is downloaded. Scores 0-4, 26 pairs each from
    4 down to 0."""
    _words1 = _YANG_WORDS1
    _words2 = _YANG_WORDS2
    _url = 'https://dspace2.flinders.edu.au/xmlui/bitstream/handle/2328/9557/Yang%20Verb.pdf?sequence=1'
    min = 0
    max = 4

    def __init__(self, root=os.path.join('~', '.mxnet', 'datasets', 'verb130')):
        super().__init__(root=root)

    def _get_data(self):
        scores = [s for s in (4, 3, 2, 1, 0) for _ in range(26)]
        return list(zip(self._words1, self._words2, scores))

    def _download_data(self):
        pass  # self-contained


class WordAnalogyEvaluationDataset(_Dataset):
    """Base of the word analogy datasets: samples [a, b, c, d], 'a is to b as c is to d'."""

    def _get_data(self):
        raise NotImplementedError


@register(category=GOOGLEANALOGY_CATEGORIES)
class GoogleAnalogyTestSet(WordAnalogyEvaluationDataset):
    """Mikolov et al.'s analogy questions (questions-words.txt), optionally of one `group` ('syntactic': the
    'gram' categories, or 'semantic') or one `category`; lower-cased unless lowercase=False. root: default
    $MXNET_HOME/datasets/google_analogy."""
    _archive_file = ('questions-words.txt', 'fa92df4bbe788f2d51827c762c63bd8e470edf31')
    _checksums = {'questions-words.txt': 'fa92df4bbe788f2d51827c762c63bd8e470edf31'}
    _url = 'http://download.tensorflow.org/data/questions-words.txt'
    groups = ['syntactic', 'semantic']
    categories = GOOGLEANALOGY_CATEGORIES

    def __init__(self, group=None, category=None, lowercase=True, root=hosted.default_root('google_analogy')):
        if group is not None:
            _check(group, self.groups, 'GoogleAnalogyTestSet', 'group')
        if category is not None:
            _check(category, self.categories, 'GoogleAnalogyTestSet', 'category')
        self.category = category
        self.group = group
        self.lowercase = lowercase
        super().__init__(root=root)

    def _get_data(self):
        words, category, group = [], None, None
        with open(self._path(self._archive_file[0])) as f:
            for line in f:
                if line.startswith(':'):
                    category = line.split()[1]
                    group = 'syntactic' if 'gram' in category else 'semantic'
                    continue
                if self.group is not None and self.group != group or \
                        self.category is not None and self.category != category:
                    continue
                words.append((line.lower() if self.lowercase else line).split())
        return words


@register(category=list(BATS_CATEGORIES))
class BiggerAnalogyTestSet(WordAnalogyEvaluationDataset):
    """The Bigger Analogy Test Set, BATS 3.0 (Gladkova et al. 2016): per category (all, sorted by code, or one
    `category`) the word pairs, with only the first of '/'-separated alternative answers when
    drop_alternative_solutions, and, when form_analogy_pairs, every ordered pair of two different pairs as
    [a, b, c, d]. root: default $MXNET_HOME/datasets/bigger_analogy."""
    _archive_file = ('BATS_3.0.zip', 'bf94d47884be9ea83af369beeea7499ed25dcf0d')
    _checksums = BATS_CHECKSUMS
    _url = 'https://s3.amazonaws.com/blackbirdprojects/tut_vsm/BATS_3.0.zip'
    _category_group_map = BATS_GROUPS
    _categories = BATS_CATEGORIES

    def __init__(self, category=None, form_analogy_pairs=True, drop_alternative_solutions=True,
                 root=hosted.default_root('bigger_analogy')):
        self.form_analogy_pairs = form_analogy_pairs
        self.drop_alternative_solutions = drop_alternative_solutions
        self.category = category
        if category is not None:
            _check(category, list(self._categories), 'BiggerAnalogyTestSet', 'category')
        super().__init__(root=root)

    def _get_data(self):
        out = []
        for code in [self.category] if self.category is not None else sorted(self._categories):
            rows = [[row[0], row[1].split('/')] for row in CorpusDataset(self._path(bats_path(code)))]
            if self.drop_alternative_solutions:
                rows = [[a, b[0]] for a, b in rows]
            if self.form_analogy_pairs:
                rows = [[x[0], x[1], y[0], y[1]] for x in rows for y in rows if x != y]
            out += rows
        return out
