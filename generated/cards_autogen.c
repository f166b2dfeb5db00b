/* generated from cards.json (sha256 6ce6a87a39c5b6c9) by azuki.convert — do not edit; regenerate with `python -m azuki.convert --write-default` */
#include "cards_autogen.h"

const azk_cardset azk_default_cardset_data = {
    .num_defs = 36,
    .num_decks = 2,
    .num_subtypes = 24,
    .num_abilities = 30,
    .num_selectors = 26,
    .bytecode_len = 522,
    .defs = {
        /*   0 STT01-001 Raizan */
        {.id = "STT01-001", .name = "Raizan", .card_type = 0, .element = 1, .rarity = 4, .keywords = 0, .cost = 0, .attack = 0, .health = 20, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 0, .subtypes = 3ULL},
        /*   1 STT01-002 Surge */
        {.id = "STT01-002", .name = "Surge", .card_type = 1, .element = 1, .rarity = 5, .keywords = 0, .cost = 0, .attack = 0, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 1, .subtypes = 4ULL},
        /*   2 STT01-003 Crate Rat Kurobo */
        {.id = "STT01-003", .name = "Crate Rat Kurobo", .card_type = 2, .element = 1, .rarity = 0, .keywords = 0, .cost = 1, .attack = 1, .health = 1, .gate_points = 1, .carapace = 0, .ability_count = 1, .ability_first = 2, .subtypes = 8ULL},
        /*   3 STT01-004 Black Jade Recruit */
        {.id = "STT01-004", .name = "Black Jade Recruit", .card_type = 2, .element = 0, .rarity = 0, .keywords = 0, .cost = 1, .attack = 1, .health = 1, .gate_points = 1, .carapace = 0, .ability_count = 1, .ability_first = 3, .subtypes = 24ULL},
        /*   4 STT01-005 Alpine Prowler */
        {.id = "STT01-005", .name = "Alpine Prowler", .card_type = 2, .element = 1, .rarity = 0, .keywords = 0, .cost = 2, .attack = 1, .health = 1, .gate_points = 2, .carapace = 0, .ability_count = 1, .ability_first = 4, .subtypes = 32ULL},
        /*   5 STT01-006 Silver Current, Haruhi */
        {.id = "STT01-006", .name = "Silver Current, Haruhi", .card_type = 2, .element = 1, .rarity = 2, .keywords = 0, .cost = 2, .attack = 1, .health = 2, .gate_points = 1, .carapace = 0, .ability_count = 1, .ability_first = 5, .subtypes = 192ULL},
        /*   6 STT01-007 Alley Guy */
        {.id = "STT01-007", .name = "Alley Guy", .card_type = 2, .element = 0, .rarity = 0, .keywords = 0, .cost = 2, .attack = 1, .health = 2, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 6, .subtypes = 272ULL},
        /*   7 STT01-008 Black Jade Crewleader */
        {.id = "STT01-008", .name = "Black Jade Crewleader", .card_type = 2, .element = 1, .rarity = 1, .keywords = 0, .cost = 3, .attack = 2, .health = 2, .gate_points = 1, .carapace = 0, .ability_count = 1, .ability_first = 7, .subtypes = 10ULL},
        /*   8 STT01-009 Weapon Master Yamada */
        {.id = "STT01-009", .name = "Weapon Master Yamada", .card_type = 2, .element = 1, .rarity = 1, .keywords = 0, .cost = 4, .attack = 2, .health = 2, .gate_points = 2, .carapace = 0, .ability_count = 1, .ability_first = 8, .subtypes = 2ULL},
        /*   9 STT01-010 Indra */
        {.id = "STT01-010", .name = "Indra", .card_type = 2, .element = 1, .rarity = 2, .keywords = 1, .cost = 5, .attack = 3, .health = 2, .gate_points = 3, .carapace = 0, .ability_count = 0, .ability_first = 9, .subtypes = 130ULL},
        /*  10 STT01-011 Raizan */
        {.id = "STT01-011", .name = "Raizan", .card_type = 2, .element = 1, .rarity = 3, .keywords = 0, .cost = 6, .attack = 4, .health = 3, .gate_points = 4, .carapace = 0, .ability_count = 1, .ability_first = 9, .subtypes = 3ULL},
        /*  11 STT01-012 Lightning Shuriken */
        {.id = "STT01-012", .name = "Lightning Shuriken", .card_type = 3, .element = 1, .rarity = 0, .keywords = 0, .cost = 1, .attack = 1, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 10, .subtypes = 1536ULL},
        /*  12 STT01-013 Black Jade Dagger */
        {.id = "STT01-013", .name = "Black Jade Dagger", .card_type = 3, .element = 0, .rarity = 0, .keywords = 0, .cost = 1, .attack = 1, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 11, .subtypes = 2056ULL},
        /*  13 STT01-014 Tenshin */
        {.id = "STT01-014", .name = "Tenshin", .card_type = 3, .element = 0, .rarity = 0, .keywords = 0, .cost = 2, .attack = 2, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 12, .subtypes = 2048ULL},
        /*  14 STT01-015 Tenraku */
        {.id = "STT01-015", .name = "Tenraku", .card_type = 3, .element = 0, .rarity = 1, .keywords = 0, .cost = 3, .attack = 3, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 13, .subtypes = 2048ULL},
        /*  15 STT01-016 Raizan's Zanbato */
        {.id = "STT01-016", .name = "Raizan's Zanbato", .card_type = 3, .element = 1, .rarity = 3, .keywords = 0, .cost = 4, .attack = 4, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 14, .subtypes = 2049ULL},
        /*  16 STT01-017 Lightning Orb */
        {.id = "STT01-017", .name = "Lightning Orb", .card_type = 4, .element = 1, .rarity = 1, .keywords = 0, .cost = 1, .attack = 0, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 15, .subtypes = 12288ULL},
        /*  17 IKZ-001 IKZ Card */
        {.id = "IKZ-001", .name = "IKZ Card", .card_type = 5, .element = 0, .rarity = 6, .keywords = 0, .cost = 0, .attack = 0, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 0, .ability_first = 16, .subtypes = 0ULL},
        /*  18 IKZ-002 Extra IKZ Card */
        {.id = "IKZ-002", .name = "Extra IKZ Card", .card_type = 5, .element = 0, .rarity = 6, .keywords = 0, .cost = 0, .attack = 0, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 0, .ability_first = 16, .subtypes = 0ULL},
        /*  19 STT02-001 Shao */
        {.id = "STT02-001", .name = "Shao", .card_type = 0, .element = 2, .rarity = 4, .keywords = 0, .cost = 0, .attack = 0, .health = 20, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 16, .subtypes = 49152ULL},
        /*  20 STT02-002 Hydromancy */
        {.id = "STT02-002", .name = "Hydromancy", .card_type = 1, .element = 2, .rarity = 5, .keywords = 0, .cost = 0, .attack = 0, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 17, .subtypes = 4ULL},
        /*  21 STT02-003 Hayabusa Itto */
        {.id = "STT02-003", .name = "Hayabusa Itto", .card_type = 2, .element = 2, .rarity = 0, .keywords = 0, .cost = 1, .attack = 1, .health = 1, .gate_points = 1, .carapace = 0, .ability_count = 1, .ability_first = 18, .subtypes = 65600ULL},
        /*  22 STT02-004 Rei */
        {.id = "STT02-004", .name = "Rei", .card_type = 2, .element = 0, .rarity = 0, .keywords = 0, .cost = 1, .attack = 1, .health = 2, .gate_points = 0, .carapace = 0, .ability_count = 0, .ability_first = 19, .subtypes = 16ULL},
        /*  23 STT02-005 Hayabusa Saburo */
        {.id = "STT02-005", .name = "Hayabusa Saburo", .card_type = 2, .element = 2, .rarity = 1, .keywords = 0, .cost = 1, .attack = 1, .health = 1, .gate_points = 1, .carapace = 0, .ability_count = 1, .ability_first = 19, .subtypes = 65536ULL},
        /*  24 STT02-006 Foamback Crab */
        {.id = "STT02-006", .name = "Foamback Crab", .card_type = 2, .element = 2, .rarity = 0, .keywords = 18, .cost = 2, .attack = 0, .health = 1, .gate_points = 1, .carapace = 0, .ability_count = 0, .ability_first = 20, .subtypes = 425984ULL},
        /*  25 STT02-007 Benzai the Merchant */
        {.id = "STT02-007", .name = "Benzai the Merchant", .card_type = 2, .element = 2, .rarity = 0, .keywords = 0, .cost = 2, .attack = 1, .health = 2, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 20, .subtypes = 1572864ULL},
        /*  26 STT02-008 Serene Fist, Misaki */
        {.id = "STT02-008", .name = "Serene Fist, Misaki", .card_type = 2, .element = 2, .rarity = 1, .keywords = 16, .cost = 2, .attack = 2, .health = 1, .gate_points = 0, .carapace = 0, .ability_count = 0, .ability_first = 21, .subtypes = 32768ULL},
        /*  27 STT02-009 Aya */
        {.id = "STT02-009", .name = "Aya", .card_type = 2, .element = 2, .rarity = 0, .keywords = 0, .cost = 3, .attack = 1, .health = 2, .gate_points = 1, .carapace = 0, .ability_count = 1, .ability_first = 21, .subtypes = 6291456ULL},
        /*  28 STT02-010 Selis of the Shore */
        {.id = "STT02-010", .name = "Selis of the Shore", .card_type = 2, .element = 2, .rarity = 2, .keywords = 0, .cost = 3, .attack = 1, .health = 3, .gate_points = 1, .carapace = 0, .ability_count = 1, .ability_first = 22, .subtypes = 1048576ULL},
        /*  29 STT02-011 Bubblemancer */
        {.id = "STT02-011", .name = "Bubblemancer", .card_type = 2, .element = 2, .rarity = 0, .keywords = 0, .cost = 3, .attack = 2, .health = 2, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 23, .subtypes = 32768ULL},
        /*  30 STT02-012 Young Shao */
        {.id = "STT02-012", .name = "Young Shao", .card_type = 2, .element = 0, .rarity = 1, .keywords = 0, .cost = 4, .attack = 2, .health = 2, .gate_points = 2, .carapace = 0, .ability_count = 1, .ability_first = 24, .subtypes = 16400ULL},
        /*  31 STT02-013 Mizuki */
        {.id = "STT02-013", .name = "Mizuki", .card_type = 2, .element = 2, .rarity = 3, .keywords = 0, .cost = 5, .attack = 3, .health = 4, .gate_points = 2, .carapace = 0, .ability_count = 1, .ability_first = 25, .subtypes = 1048576ULL},
        /*  32 STT02-014 Chilling Water */
        {.id = "STT02-014", .name = "Chilling Water", .card_type = 4, .element = 2, .rarity = 0, .keywords = 0, .cost = 1, .attack = 0, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 26, .subtypes = 10485760ULL},
        /*  33 STT02-015 Commune with Water */
        {.id = "STT02-015", .name = "Commune with Water", .card_type = 4, .element = 2, .rarity = 1, .keywords = 0, .cost = 2, .attack = 0, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 27, .subtypes = 2097152ULL},
        /*  34 STT02-016 Water Orb */
        {.id = "STT02-016", .name = "Water Orb", .card_type = 4, .element = 2, .rarity = 2, .keywords = 0, .cost = 1, .attack = 0, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 28, .subtypes = 2105344ULL},
        /*  35 STT02-017 Shao's Perseverance */
        {.id = "STT02-017", .name = "Shao's Perseverance", .card_type = 4, .element = 2, .rarity = 3, .keywords = 0, .cost = 6, .attack = 0, .health = 0, .gate_points = 0, .carapace = 0, .ability_count = 1, .ability_first = 29, .subtypes = 2113536ULL},
    },
    .decks = {
        /*   0 STT01 */
        {.name = "STT01", .leader = 0, .gate = 1, .token = 18, .ikz = {17, 17, 17, 17, 17, 17, 17, 17, 17, 17}, .main = {2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 9, 9, 10, 10, 11, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 15, 15, 16, 16, 16, 16}},
        /*   1 STT02 */
        {.name = "STT02", .leader = 19, .gate = 20, .token = 18, .ikz = {17, 17, 17, 17, 17, 17, 17, 17, 17, 17}, .main = {21, 21, 21, 21, 22, 22, 22, 22, 23, 23, 23, 23, 24, 24, 24, 24, 25, 25, 25, 25, 26, 26, 26, 26, 27, 27, 27, 27, 28, 28, 29, 29, 29, 29, 30, 30, 30, 30, 31, 31, 32, 32, 33, 33, 33, 33, 34, 34, 35, 35}},
    },
    .subtype_names = {"Raizan", "Steelborn", "Gate", "Black Jade", "Dawnling", "Bandit", "Elder", "Monk", "Alley Dweller", "Shuriken", "Shadowfang", "Sword", "Stormcaller", "Orb", "Shao", "Driftward", "Sushi Chef", "Crab", "Rippleborn", "Frog", "Wavecaller", "Watercrafting", "Water Painter", "Subzero"},
    .abilities = {
        /*   0 */
        {.kind = 1, .trigger = 0, .flags = 1, .ikz_cost = 1, .program = 5, .requirement = 0, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*   1 */
        {.kind = 0, .trigger = 10, .flags = 0, .ikz_cost = 0, .program = 15, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*   2 */
        {.kind = 0, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 33, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*   3 */
        {.kind = 0, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 55, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*   4 */
        {.kind = 1, .trigger = 0, .flags = 34, .ikz_cost = 0, .program = 88, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*   5 */
        {.kind = 0, .trigger = 4, .flags = 1, .ikz_cost = 0, .program = 113, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*   6 */
        {.kind = 0, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 124, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*   7 */
        {.kind = 2, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 65535, .requirement = 65535, .condition = 143, .static_target = 0, .selector = 0, .attack = 1, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*   8 */
        {.kind = 2, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 65535, .requirement = 65535, .condition = 151, .static_target = 0, .selector = 0, .attack = 2, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*   9 */
        {.kind = 2, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 65535, .requirement = 65535, .condition = 65535, .static_target = 1, .selector = 8, .attack = 0, .health = 0, .set_bonus = 5, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  10 */
        {.kind = 0, .trigger = 4, .flags = 0, .ikz_cost = 0, .program = 156, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  11 */
        {.kind = 0, .trigger = 3, .flags = 0, .ikz_cost = 0, .program = 162, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  12 */
        {.kind = 0, .trigger = 3, .flags = 0, .ikz_cost = 0, .program = 185, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  13 */
        {.kind = 2, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 65535, .requirement = 65535, .condition = 196, .static_target = 0, .selector = 0, .attack = 1, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  14 */
        {.kind = 0, .trigger = 4, .flags = 0, .ikz_cost = 0, .program = 206, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  15 */
        {.kind = 3, .trigger = 0, .flags = 8, .ikz_cost = 0, .program = 233, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  16 */
        {.kind = 1, .trigger = 0, .flags = 9, .ikz_cost = 1, .program = 261, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  17 */
        {.kind = 0, .trigger = 10, .flags = 0, .ikz_cost = 0, .program = 270, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  18 */
        {.kind = 0, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 291, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  19 */
        {.kind = 0, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 311, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  20 */
        {.kind = 0, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 330, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  21 */
        {.kind = 0, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 336, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  22 */
        {.kind = 0, .trigger = 9, .flags = 4, .ikz_cost = 0, .program = 356, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  23 */
        {.kind = 1, .trigger = 0, .flags = 36, .ikz_cost = 0, .program = 389, .requirement = 384, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  24 */
        {.kind = 2, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 65535, .requirement = 65535, .condition = 399, .static_target = 0, .selector = 0, .attack = 1, .health = 1, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  25 */
        {.kind = 0, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 415, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  26 */
        {.kind = 3, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 457, .requirement = 452, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  27 */
        {.kind = 3, .trigger = 0, .flags = 8, .ikz_cost = 0, .program = 472, .requirement = 467, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  28 */
        {.kind = 3, .trigger = 0, .flags = 8, .ikz_cost = 0, .program = 484, .requirement = 479, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
        /*  29 */
        {.kind = 3, .trigger = 0, .flags = 0, .ikz_cost = 0, .program = 499, .requirement = 65535, .condition = 65535, .static_target = 0, .selector = 0, .attack = 0, .health = 0, .set_bonus = 0, .amount = 0, .grant = 0, .remove = 0, .cost_change = 0},
    },
    .selectors = {
        /*   0 */
        {.zones = 2, .side = 1, .types = 4, .flags = 2, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*   1 */
        {.zones = 16, .side = 1, .types = 8, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 1, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*   2 */
        {.zones = 16, .side = 1, .types = 8, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*   3 */
        {.zones = 8, .side = 1, .types = 8, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*   4 */
        {.zones = 64, .side = 1, .types = 8, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*   5 */
        {.zones = 8, .side = 1, .types = 0, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*   6 */
        {.zones = 3, .side = 2, .types = 0, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*   7 */
        {.zones = 0, .side = 3, .types = 0, .flags = 2, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*   8 */
        {.zones = 32, .side = 1, .types = 0, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 15, .exclude_t = 255, .subtypes = 0ULL},
        /*   9 */
        {.zones = 1, .side = 3, .types = 0, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*  10 */
        {.zones = 0, .side = 3, .types = 0, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 1ULL},
        /*  11 */
        {.zones = 2, .side = 2, .types = 4, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*  12 */
        {.zones = 2, .side = 2, .types = 4, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 0, .subtypes = 0ULL},
        /*  13 */
        {.zones = 3, .side = 3, .types = 0, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*  14 */
        {.zones = 64, .side = 1, .types = 0, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 2097152ULL},
        /*  15 */
        {.zones = 2, .side = 1, .types = 4, .flags = 0, .cost_min = 2, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*  16 */
        {.zones = 2, .side = 2, .types = 4, .flags = 0, .cost_min = -128, .cost_max = 2, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*  17 */
        {.zones = 0, .side = 3, .types = 0, .flags = 8, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*  18 */
        {.zones = 2, .side = 1, .types = 4, .flags = 1, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*  19 */
        {.zones = 2, .side = 1, .types = 4, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*  20 */
        {.zones = 64, .side = 1, .types = 0, .flags = 0, .cost_min = -128, .cost_max = 2, .cost_max_reg = 255, .element = 2, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*  21 */
        {.zones = 8, .side = 3, .types = 4, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*  22 */
        {.zones = 2, .side = 3, .types = 4, .flags = 0, .cost_min = -128, .cost_max = 3, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*  23 */
        {.zones = 8, .side = 1, .types = 0, .flags = 1, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
        /*  24 */
        {.zones = 0, .side = 3, .types = 0, .flags = 0, .cost_min = -128, .cost_max = 127, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 16384ULL},
        /*  25 */
        {.zones = 2, .side = 2, .types = 4, .flags = 0, .cost_min = -128, .cost_max = 6, .cost_max_reg = 255, .element = 255, .def = 255, .exclude_t = 255, .subtypes = 0ULL},
    },
    .bytecode = {
        0x25, 0x00, 0x00, 0x01, 0x00, 0x11, 0x00, 0x00, 0x00, 0x16, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0d,
        0x01, 0x00, 0x11, 0x00, 0x01, 0x01, 0x0e, 0x04, 0x00, 0x02, 0x04, 0x20, 0x00, 0x1e, 0x00, 0x03,
        0x00, 0x25, 0x04, 0x02, 0x01, 0x02, 0x04, 0x31, 0x00, 0x03, 0x04, 0x03, 0x18, 0x04, 0x01, 0x36,
        0x00, 0x03, 0x04, 0x05, 0x18, 0x04, 0x00, 0x11, 0x00, 0x03, 0x01, 0x0e, 0x04, 0x00, 0x02, 0x04,
        0x57, 0x00, 0x19, 0x00, 0x03, 0x04, 0x05, 0x1b, 0x04, 0x11, 0x01, 0x04, 0x01, 0x0e, 0x04, 0x01,
        0x02, 0x04, 0x56, 0x00, 0x1c, 0x01, 0x1d, 0x00, 0x03, 0x04, 0x03, 0x17, 0x04, 0x03, 0x04, 0x02,
        0x02, 0x04, 0x70, 0x00, 0x11, 0x00, 0x05, 0x00, 0x19, 0x00, 0x04, 0x04, 0xff, 0x01, 0x60, 0x00,
        0x00, 0x11, 0x00, 0x06, 0x01, 0x03, 0x04, 0x01, 0x14, 0x00, 0x04, 0x00, 0x11, 0x00, 0x05, 0x01,
        0x0e, 0x04, 0x00, 0x02, 0x04, 0x8e, 0x00, 0x19, 0x00, 0x03, 0x04, 0x01, 0x17, 0x04, 0x00, 0x10,
        0x00, 0x00, 0x0f, 0x00, 0x00, 0x07, 0x00, 0x25, 0x00, 0x02, 0x06, 0x00, 0x03, 0x04, 0x01, 0x18,
        0x04, 0x00, 0x12, 0x04, 0x02, 0x04, 0xb8, 0x00, 0x10, 0x00, 0x03, 0x03, 0x04, 0x01, 0x14, 0x00,
        0x04, 0x10, 0x01, 0x00, 0x15, 0x01, 0x01, 0x02, 0x00, 0x11, 0x00, 0x09, 0x01, 0x03, 0x04, 0x01,
        0x14, 0x00, 0x04, 0x00, 0x0d, 0x00, 0x03, 0x03, 0x04, 0x0f, 0x08, 0x00, 0x04, 0x00, 0x10, 0x00,
        0x01, 0x0f, 0x04, 0x00, 0x0a, 0x02, 0x04, 0xe8, 0x00, 0x22, 0x01, 0x0b, 0xe8, 0x00, 0x03, 0x04,
        0x01, 0x14, 0x01, 0x04, 0x23, 0x01, 0xde, 0x00, 0x00, 0x11, 0x00, 0x0b, 0x01, 0x0e, 0x04, 0x00,
        0x02, 0x04, 0x04, 0x01, 0x11, 0x01, 0x0c, 0x01, 0x03, 0x04, 0x01, 0x14, 0x00, 0x04, 0x03, 0x04,
        0x01, 0x14, 0x01, 0x04, 0x00, 0x11, 0x00, 0x0d, 0x00, 0x15, 0x00, 0xff, 0x00, 0x00, 0x0d, 0x04,
        0x00, 0x0d, 0x05, 0x05, 0x07, 0x04, 0x05, 0x13, 0x01, 0x04, 0x03, 0x04, 0x00, 0x05, 0x04, 0x01,
        0x1f, 0x04, 0x00, 0x03, 0x04, 0x05, 0x1b, 0x04, 0x11, 0x00, 0x0e, 0x01, 0x0e, 0x04, 0x00, 0x02,
        0x04, 0x35, 0x01, 0x1c, 0x00, 0x1d, 0x00, 0x0d, 0x04, 0x00, 0x03, 0x05, 0x02, 0x08, 0x04, 0x05,
        0x02, 0x04, 0x49, 0x01, 0x03, 0x04, 0x01, 0x17, 0x04, 0x00, 0x03, 0x04, 0x01, 0x17, 0x04, 0x00,
        0x11, 0x00, 0x0f, 0x01, 0x0e, 0x04, 0x00, 0x02, 0x04, 0x63, 0x01, 0x24, 0x00, 0x11, 0x01, 0x10,
        0x01, 0x1a, 0x01, 0x00, 0x10, 0x00, 0x00, 0x0f, 0x04, 0x00, 0x11, 0x02, 0x04, 0x7f, 0x01, 0x12,
        0x04, 0x02, 0x04, 0x7f, 0x01, 0x10, 0x00, 0x00, 0x20, 0x00, 0x03, 0x04, 0x01, 0x17, 0x04, 0x00,
        0x25, 0x00, 0x12, 0x01, 0x00, 0x11, 0x00, 0x13, 0x00, 0x16, 0x00, 0x10, 0x00, 0x01, 0x00, 0x0c,
        0x00, 0x13, 0x0c, 0x04, 0x0b, 0x03, 0x05, 0x02, 0x05, 0x04, 0x05, 0x08, 0x00, 0x04, 0x00, 0x03,
        0x04, 0x03, 0x1b, 0x04, 0x11, 0x00, 0x14, 0x01, 0x0e, 0x04, 0x00, 0x02, 0x04, 0xb1, 0x01, 0x1c,
        0x00, 0x1d, 0x0f, 0x04, 0x00, 0x15, 0x02, 0x04, 0xc3, 0x01, 0x12, 0x04, 0x02, 0x04, 0xc3, 0x01,
        0x1e, 0x00, 0x02, 0x00, 0x25, 0x00, 0x10, 0x01, 0x00, 0x11, 0x00, 0x10, 0x00, 0x16, 0x00, 0x00,
        0x01, 0x01, 0x00, 0x25, 0x00, 0x16, 0x01, 0x00, 0x11, 0x00, 0x16, 0x00, 0x1a, 0x00, 0x00, 0x25,
        0x00, 0x17, 0x01, 0x00, 0x11, 0x00, 0x17, 0x00, 0x19, 0x00, 0x11, 0x01, 0x0d, 0x00, 0x15, 0x01,
        0xfe, 0x00, 0x00, 0x10, 0x00, 0x03, 0x0f, 0x04, 0x00, 0x18, 0x02, 0x04, 0x09, 0x02, 0x22, 0x01,
        0x19, 0x09, 0x02, 0x1a, 0x01, 0x23, 0x01, 0x03, 0x02, 0x00,
    },
};
