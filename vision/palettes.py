"""Color palettes of segmentation datasets as GluonCV's get_color_pallete paints them (data: RGB per class id, as
hex; ADE20K's is the MIT scene-parsing benchmark's 150 classes after black for "other", Cityscapes' its 19
training classes' official colors, MHP v1's its 18 parts after white; Pascal VOC's is computed, image.voc_palette)."""


_ADE20K = (
    '000000787878b4787806e6e650323204c8037878508c8c8ccc05ffe6e6e604fa07e005ffebff0796053d78784608ff33ff06528fff8c'
    'ccff04ff3307cc46030066c83de6faff06330b66ffff0747ff09e00907e6dcdcdcff095c7009ff08ffd607ffe0ffb8060aff47ff290a'
    '07ffffe0ff086608ffff3d06ffc207ff7a0800ff14ff0829ff05990633ffeb0cffa0961400a3ff8c8c8cfa0a0f14ff001fff00ff1f00'
    'ffe00099ff000000ffff470000ebff00adff1f00ff0bc8c8ff520000fff5003dff00ff7000ff85ff0000ffa300ff6600c2ff00008fff'
    '33ff000052ff00ff2900ffad0a00ffadff0000ff99ff5c00ff00ffff00f5ff0066ffad00ff0014ffb8b8001fff00ff3d0047ffff00cc'
    '00ffc200ff52000aff0070ff3300ff00c2ff007aff00ffa3ff990000ff0aff70008fff005200ffa3ff00ffeb0008b8aa8500ff00ff5c'
    'b800ffff001f00b8ff00d6ffff00705cff0000e0ff70e0ff46b8a0a300ff9900ff47ff00ff00a3ffcc00ff008f00ffeb85ff00ff00eb'
    'f500ffff007afff5000abed4d6ff0000ccff1400ffffff000099ff0029ff00ffcc2900ff29ff00ad00ff00f5ff4700ff7a00ff00ffb8'
    '005cffb8ff000085ffffd60019c2c266ff005c00ff'
)

_CITYSCAPES = (
    '804080f423e846464666669cbe9999999999faaa1edcdc006b8e2398fb980082b4dc143cff000000008e000046003c640050640000e6'
    '770b20'
)

_MHPV1 = (
    'ffffffa52a2aff0000008000a52a2aff4500ff14931e90ff556b2f0080808b45134682b432cd320000cd00bfff00ffff00fa9aadff2f'
    'ffff00'
)


def _rgb(hexs):
    """A flat [r, g, b, r, g, b, ...] list (what PIL's putpalette takes) of concatenated 6-digit hex colors."""
    s = ''.join(hexs)
    return [int(s[i:i + 2], 16) for i in range(0, len(s), 2)]


ADE20K, CITYSCAPES, MHPV1 = _rgb(_ADE20K), _rgb(_CITYSCAPES), _rgb(_MHPV1)
