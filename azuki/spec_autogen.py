"""generated from csrc/*.def by azuki.convert — do not edit; regenerate with `python -m azuki.convert --write-default`.

The engine's vocabularies as Python constants. Each family is a tuple of
names (index = the C enum value) plus NAME = value constants.
CAPS: the capacities azuki.convert needs, from csrc/{card_def.h,game.h,cardset.h}
(read from here when the package is installed without its C sources).
"""

SOURCES = 'azk_actions.def, azk_cardset.def, azk_enums.def, azk_export.def, azk_invariants.def, azk_obs.def, azk_opcodes.def'

CAPS = {
    'AZK_DECK_MAIN': 50,
    'AZK_DECK_IKZ': 10,
    'AZK_ROW': 5,
    'AZK_HAND_CAP': 50,
    'AZK_DECK_CAP': 50,
    'AZK_DISCARD_CAP': 50,
    'AZK_WEAPON_CAP': 50,
    'AZK_IKZ_AREA_CAP': 11,
    'AZK_LOOK_CAP': 10,
    'AZK_MAX_OPTIONS': 64,
    'AZK_MAX_EACH': 16,
    'AZK_REGS': 8,
    'AZK_TREGS': 4,
    'AZK_VM_STEP_LIMIT': 4096,
    'AZK_MAX_ABILITIES': 254,
    'AZK_MAX_SELECTORS': 255,
    'AZK_MAX_BYTECODE': 24576,
    'AZK_MAX_ACTIVATED': 2,
    'AZK_DEFAULT_TURN_CAP': 200,
    'AZK_NO_PC': 65535,
    'AZK_NONE': 255,
    'AZK_MAX_TURN_CAP': 60000,
    'AZK_DEFAULT_DECISION_CAP': 10000,
    'AZK_MAX_DECISION_CAP': 60000,
    'AZK_MAX_DAMAGE': 30000,
    'AZK_GAME_RNG_STREAM': 2729558229,
    'AZK_SIM_RNG_STREAM': 1592614637,
    'AZK_MAX_MODES': 7,
    'AZK_VM_DEPTH': 3,
    'AZK_TRIG_NTH_SHIFT': 5,
    'AZK_MAX_CARD_DEFS': 127,
    'AZK_CARD_ID_SCALE': 127,
    'AZK_MAX_SUBTYPES': 64,
    'AZK_MAX_DECKS': 8,
    'AZK_CARD_ID_LEN': 12,
    'AZK_CARD_NAME_LEN': 32,
    'AZK_SUBTYPE_NAME_LEN': 24,
    'AZK_DECK_NAME_LEN': 16,
    'AZK_MAX_CARD_ABILITIES': 8,
    'AZK_CARDSET_MAGIC': 1396922945,
    'AZK_CARDSET_FORMAT_VERSION': 3,
    'AZK_CARDSET_HEADER_BYTES': 8,
}

ABILITY_FLAG = ('ONCE_PER_TURN', 'ALLEY_ONLY', 'GARDEN_ONLY', 'RESPONSE', 'TAP_COST', 'SACRIFICE_COST', 'IGNORES_COOLDOWN')
ABILITY_FLAG_DOC = ('[Once/Turn], per object (rules §8)', 'works only while the source is in the alley', 'works only while the source is in the garden', 'activated / spell: response step (a) only', 'activated: TAP the source (needs no cooldown)', 'activated: the source is sacrificed first', 'TAP costs of this ability ignore cooldown')
ABILITY_FLAG_ONCE_PER_TURN = 0
ABILITY_FLAG_ALLEY_ONLY = 1
ABILITY_FLAG_GARDEN_ONLY = 2
ABILITY_FLAG_RESPONSE = 3
ABILITY_FLAG_TAP_COST = 4
ABILITY_FLAG_SACRIFICE_COST = 5
ABILITY_FLAG_IGNORES_COOLDOWN = 6

ABILITY_KIND = ('TRIGGERED', 'ACTIVATED', 'STATIC', 'SPELL', 'REPLACEMENT')
ABILITY_KIND_DOC = ('runs its program when its trigger happens', 'ACTIVATE_ABILITY action: pay the costs, run the program', 'continuous: modifies stats while its condition holds', "the spell's effect: runs its program when the spell is played", 'rules §15.5: when its trigger (ON_DESTROYED or ON_DAMAGED) would happen to the source or a matching card, amount of the damage is prevented and/or its program (never asks) runs instead')
ABILITY_KIND_TRIGGERED = 0
ABILITY_KIND_ACTIVATED = 1
ABILITY_KIND_STATIC = 2
ABILITY_KIND_SPELL = 3
ABILITY_KIND_REPLACEMENT = 4

ACTION = ('NO_OP', 'PLAY_ENTITY_TO_GARDEN', 'PLAY_ENTITY_TO_ALLEY', 'PLAY_WEAPON', 'PLAY_SPELL_MAIN', 'PLAY_SPELL_RESPONSE', 'ATTACK', 'DECLARE_DEFENDER', 'PORTAL_GATE', 'ACTIVATE_ABILITY', 'END_TURN', 'MULLIGAN_KEEP', 'MULLIGAN_SHUFFLE', 'CHOOSE')
ACTION_DOC = ('decline / pass / done (response window, optional prompts)', 'p0 hand index, p1 garden slot (slot to replace when full)', 'p0 hand index, p1 alley slot (slot to replace when full)', 'p0 hand index, p1 holder: 0 leader, 1..5 garden slot+1', 'p0 hand index; targets come as prompts', 'p0 hand index; targets come as prompts', 'p0 attacker: 0 leader, 1..5 garden slot+1; p1 target: 0 enemy leader, 1..5 enemy garden slot+1', 'p0 garden slot of the new defender', 'p0 alley slot, p1 garden slot (slot to replace when full)', 'p0 source: 0 leader, 1..5 garden, 6..10 alley; p1 activated-ability index', 'end the main phase', 'keep the opening hand', 'hand to the bottom, draw 7, shuffle', 'p0 option index of the pending prompt')
ACTION_ARGS = ((1, 1, 'NONE', 'NONE'), ('AZK_HAND_CAP', 'AZK_ROW', 'HAND', 'GARDEN'), ('AZK_HAND_CAP', 'AZK_ROW', 'HAND', 'ALLEY'), ('AZK_HAND_CAP', '1 + AZK_ROW', 'HAND', 'HOLDER'), ('AZK_HAND_CAP', 1, 'HAND', 'NONE'), ('AZK_HAND_CAP', 1, 'HAND', 'NONE'), ('1 + AZK_ROW', '1 + AZK_ROW', 'HOLDER', 'ENEMY_HOLDER'), ('AZK_ROW', 1, 'GARDEN', 'NONE'), ('AZK_ROW', 'AZK_ROW', 'ALLEY', 'GARDEN'), ('1 + 2 * AZK_ROW', 'AZK_MAX_ACTIVATED', 'SOURCE', 'ABILITY'), (1, 1, 'NONE', 'NONE'), (1, 1, 'NONE', 'NONE'), (1, 1, 'NONE', 'NONE'), ('AZK_MAX_OPTIONS', 1, 'OPTION', 'NONE'))
ACTION_NO_OP = 0
ACTION_PLAY_ENTITY_TO_GARDEN = 1
ACTION_PLAY_ENTITY_TO_ALLEY = 2
ACTION_PLAY_WEAPON = 3
ACTION_PLAY_SPELL_MAIN = 4
ACTION_PLAY_SPELL_RESPONSE = 5
ACTION_ATTACK = 6
ACTION_DECLARE_DEFENDER = 7
ACTION_PORTAL_GATE = 8
ACTION_ACTIVATE_ABILITY = 9
ACTION_END_TURN = 10
ACTION_MULLIGAN_KEEP = 11
ACTION_MULLIGAN_SHUFFLE = 12
ACTION_CHOOSE = 13

ACTION_PARAM = ('NONE', 'HAND', 'GARDEN', 'ALLEY', 'HOLDER', 'ENEMY_HOLDER', 'SOURCE', 'ABILITY', 'OPTION')
ACTION_PARAM_DOC = ('no parameter (its size is 1)', "an index into the acting player's hand", 'a garden slot of the acting player', 'an alley slot of the acting player', "0 the acting player's leader, 1..5 their garden slot + 1", "0 the opponent's leader, 1..5 the opponent's garden slot + 1", "0 the acting player's leader, 1..5 garden slot + 1, 6..10 alley slot + 1", 'the k-th activated ability of the card the other parameter names', 'an option of the pending prompt')
ACTION_PARAM_NONE = 0
ACTION_PARAM_HAND = 1
ACTION_PARAM_GARDEN = 2
ACTION_PARAM_ALLEY = 3
ACTION_PARAM_HOLDER = 4
ACTION_PARAM_ENEMY_HOLDER = 5
ACTION_PARAM_SOURCE = 6
ACTION_PARAM_ABILITY = 7
ACTION_PARAM_OPTION = 8

ACTION_PARAM_FORM = ('NONE', 'INDEX', 'PLACE', 'ABILITY', 'OPTION')
ACTION_PARAM_FORM_DOC = ('no parameter: nothing to read or say', 'the value indexes the zone of that side: p<side>.<zone>[v]', 'a place code of that side (azk_place_card): 0 the leader, 1..AZK_ROW garden slot v - 1, then alley slot v - 1 - AZK_ROW', "not a place: the text says 'ability v' (Game.describe names the ability)", "option v of the pending prompt: the place it names, if any; the text 'v: its label'")
ACTION_PARAM_FORM_NONE = 0
ACTION_PARAM_FORM_INDEX = 1
ACTION_PARAM_FORM_PLACE = 2
ACTION_PARAM_FORM_ABILITY = 3
ACTION_PARAM_FORM_OPTION = 4

ACTION_PARAM_READ = ('NONE', 'HAND', 'GARDEN', 'ALLEY', 'HOLDER', 'ENEMY_HOLDER', 'SOURCE', 'ABILITY', 'OPTION')
ACTION_PARAM_READ_DOC = ('nothing', 'p<me>.hand[v]', 'p<me>.garden[v]', 'p<me>.alley[v]', 'p<me>.leader or p<me>.garden[v - 1]', 'p<opponent>.leader or p<opponent>.garden[v - 1]', 'p<me>.leader, p<me>.garden[v - 1] or p<me>.alley[v - 1 - AZK_ROW]', "'ability v'", "'v: label', the option's place")
ACTION_PARAM_READ_ARGS = (('NONE', 'NONE', 'NONE'), ('INDEX', 'SELF', 'HAND'), ('INDEX', 'SELF', 'GARDEN'), ('INDEX', 'SELF', 'ALLEY'), ('PLACE', 'SELF', 'NONE'), ('PLACE', 'ENEMY', 'NONE'), ('PLACE', 'SELF', 'NONE'), ('ABILITY', 'NONE', 'NONE'), ('OPTION', 'NONE', 'NONE'))
ACTION_PARAM_READ_NONE = 0
ACTION_PARAM_READ_HAND = 1
ACTION_PARAM_READ_GARDEN = 2
ACTION_PARAM_READ_ALLEY = 3
ACTION_PARAM_READ_HOLDER = 4
ACTION_PARAM_READ_ENEMY_HOLDER = 5
ACTION_PARAM_READ_SOURCE = 6
ACTION_PARAM_READ_ABILITY = 7
ACTION_PARAM_READ_OPTION = 8

ACTION_PARAM_SIDE = ('NONE', 'SELF', 'ENEMY')
ACTION_PARAM_SIDE_DOC = ("names nobody's place", "the acting player's", "the acting player's opponent's")
ACTION_PARAM_SIDE_NONE = 0
ACTION_PARAM_SIDE_SELF = 1
ACTION_PARAM_SIDE_ENEMY = 2

CARD_FLAG = ('TAPPED', 'COOLDOWN', 'SHOCKED', 'REVEALED', 'POISONED', 'EXPOSED')
CARD_FLAG_DOC = ('tapped', 'entered the garden this turn (rules §5.5)', "skips its controller's next untap (rules §7)", 'in a hand, known to the opponent: revealed into it (rules §8.9) or returned to it from the field (azk_return_to_hand)', 'dealt damage by a poisonous card: the next state check destroys it (rules §15.4); never set at a decision point', 'has attacked since it entered: stealth no longer protects it (rules §15.4)')
CARD_FLAG_TAPPED = 0
CARD_FLAG_COOLDOWN = 1
CARD_FLAG_SHOCKED = 2
CARD_FLAG_REVEALED = 3
CARD_FLAG_POISONED = 4
CARD_FLAG_EXPOSED = 5

CARD_TYPE = ('LEADER', 'GATE', 'ENTITY', 'WEAPON', 'SPELL', 'IKZ')
CARD_TYPE_DOC = ('Leader: 20 health, always on the field', 'Gate: portals an alley entity into the garden', 'Entity: played to garden or alley', 'Weapon: equipped to own leader or garden entity', 'Spell: resolves, then goes to the discard pile', 'IKZ: the resource')
CARD_TYPE_LEADER = 0
CARD_TYPE_GATE = 1
CARD_TYPE_ENTITY = 2
CARD_TYPE_WEAPON = 3
CARD_TYPE_SPELL = 4
CARD_TYPE_IKZ = 5

CONDITION = ('FROZEN', 'SHOCKED')
CONDITION_DOC = ('abilities disabled, cannot attack, cannot be damaged', "does not untap in its controller's next untap step")
CONDITION_FROZEN = 0
CONDITION_SHOCKED = 1

CTX = ('TRIGGER_VALUE', 'HAND_SIZE', 'DECK_SIZE', 'DISCARD_SIZE', 'UNTAPPED_IKZ', 'TAPPED_IKZ', 'SUBJECT_GP')
CTX_DOC = ("the trigger's value: portaled entity's GP (PORTAL), entities played earlier this turn (ON_PLAY)", "cards in the controller's hand", "cards in the controller's deck", "cards in the controller's discard pile", 'untapped IKZ cards of the controller', 'tapped IKZ cards of the controller', "the printed GP of the trigger's subject (0 if none), e.g. a destroyed entity's")
CTX_TRIGGER_VALUE = 0
CTX_HAND_SIZE = 1
CTX_DECK_SIZE = 2
CTX_DISCARD_SIZE = 3
CTX_UNTAPPED_IKZ = 4
CTX_TAPPED_IKZ = 5
CTX_SUBJECT_GP = 6

DURATION = ('END_OF_TURN', 'START_OF_NEXT_TURN', 'WHILE_ON_FIELD')
DURATION_DOC = ('until the end of the turn (RULES 4.3 step 3)', "until the start of its creator's next turn (RULES 4.1 step 1, D2)", 'as long as the object stays where it is (RULES 2.1)')
DURATION_END_OF_TURN = 0
DURATION_START_OF_NEXT_TURN = 1
DURATION_WHILE_ON_FIELD = 2

EFFECT_KIND = ('ATTACK', 'STATUS', 'REMOVE')
EFFECT_KIND_DOC = ('an attack change (amount)', 'statuses granted (status mask)', 'statuses masked off (remove_status, docs/rules.md §16.4): printed, granted and conditions')
EFFECT_KIND_ATTACK = 0
EFFECT_KIND_STATUS = 1
EFFECT_KIND_REMOVE = 2

ELEMENT = ('NEUTRAL', 'LIGHTNING', 'WATER', 'FIRE', 'EARTH', 'WIND', 'LIGHT', 'DARK')
ELEMENT_DOC = ('Neutral', 'Lightning', 'Water', 'Fire', 'Earth', 'Wind', 'Light', 'Dark')
ELEMENT_NEUTRAL = 0
ELEMENT_LIGHTNING = 1
ELEMENT_WATER = 2
ELEMENT_FIRE = 3
ELEMENT_EARTH = 4
ELEMENT_WIND = 5
ELEMENT_LIGHT = 6
ELEMENT_DARK = 7

END = ('NONE', 'LEADER', 'DECK_OUT', 'TURN_CAP', 'DECISION_CAP', 'VM_STEPS', 'TRIGGER_LIMIT', 'TRIGGER_QUEUE', 'EFFECTS', 'OPTIONS', 'EACH', 'LOOK', 'VM_DEPTH', 'EFFECT')
END_DOC = ('the game is not over', "a leader's health fell to 0 or less (RULES 9)", 'a player had to draw from an empty deck (RULES 9)', 'truncated: the turn cap was reached (RULES 9)', 'truncated: the per-game decision cap was reached (rules 13)', 'truncated: an ability ran more than AZK_VM_STEP_LIMIT instructions', 'truncated: more than AZK_TRIGGER_LIMIT triggers resolved in one step', 'truncated: more than AZK_MAX_TRIGGERS triggers queued at once', 'truncated: more than AZK_MAX_EFFECTS temporary effects live at once', 'truncated: a prompt had more than AZK_MAX_OPTIONS options', 'truncated: a for-each matched more than AZK_MAX_EACH cards', 'truncated: more than AZK_LOOK_CAP cards looked at at once', 'truncated: trigger_ability nested deeper than AZK_VM_DEPTH frames', 'a win or lose statement decided it (rules 15.6)')
END_NONE = 0
END_LEADER = 1
END_DECK_OUT = 2
END_TURN_CAP = 3
END_DECISION_CAP = 4
END_VM_STEPS = 5
END_TRIGGER_LIMIT = 6
END_TRIGGER_QUEUE = 7
END_EFFECTS = 8
END_OPTIONS = 9
END_EACH = 10
END_LOOK = 11
END_VM_DEPTH = 12
END_EFFECT = 13

EXPORT = ('VERSION', 'SIZE', 'NUM_CARDS', 'CARDS_PER_PLAYER', 'PLAYERS', 'TURN', 'TURN_CAP', 'DECISIONS', 'DECISION_CAP', 'ACTIVE', 'FIRST_PLAYER', 'PHASE', 'RESULT', 'END_REASON', 'CURRENT_PLAYER', 'WINNER', 'RNG', 'TRIGGERS_N', 'IN_ATTACK', 'ATTACKER', 'TARGET', 'DEFENDER_USED', 'CARD_DEF', 'CARD_OWNER', 'CARD_ZONE', 'CARD_POS', 'CARD_HOLDER', 'CARD_FLAGS', 'CARD_DAMAGE', 'CARD_ONCE_USED', 'CARD_INCARNATION', 'CARD_SEEN', 'CARD_ATTACK', 'CARD_HEALTH', 'CARD_STATUSES', 'DECK_N', 'HAND_N', 'DISCARD_N', 'WEAPONS_N', 'IKZ_AREA_N', 'IKZ_PILE_N', 'LOOK_N', 'LEADER', 'GATE', 'TOKEN', 'PLAYED_ENTITIES', 'MULLIGAN_DONE', 'DECK', 'HAND', 'DISCARD', 'WEAPONS', 'GARDEN', 'ALLEY', 'IKZ_AREA', 'IKZ_PILE', 'LOOK', 'EFFECTS_N', 'FX_CARD', 'FX_KIND', 'FX_DURATION', 'FX_CREATOR', 'FX_AMOUNT', 'FX_STATUS', 'FX_LIVE', 'PROMPT_PENDING', 'PROMPT_KIND', 'PROMPT_CHOOSER', 'PROMPT_N', 'PROMPT_OPTIONAL', 'PROMPT_OPT', 'PROMPT_SOURCE', 'PROMPT_PLACING', 'PROMPT_PLACING_OWNER', 'PROMPT_PC')
EXPORT_DOC = ('layout version (azk_export_version())', 'words written (azk_export_size())', 'physical cards (AZK_NUM_CARDS)', 'physical cards per player; player p owns p*n .. p*n+n-1', 'players (2)', "turn number (1 = the first player's first turn)", 'turn cap', 'decisions applied so far', 'decision cap', 'whose turn it is', 'who took the first turn', 'enum azk_phase (PHASE)', 'enum azk_result (RESULT)', 'enum azk_end_reason (END)', 'player to decide, -1 when over', '0/1, -1 none', 'pcg32 state low, state high, increment low, increment high (32-bit words)', 'queued triggers', '1 during an attack', 'attacking card during an attack, else -1', 'attack target during an attack, else -1', '1 once a defender was declared in this attack', 'definition index in the card set', 'owner (and controller)', 'enum azk_zone (ZONE)', 'index in its zone array (slot for garden/alley)', "attached weapons: the holder's card index, else -1", 'bit 0 tapped, 1 cooldown, 2 shocked, 3 revealed, 5 exposed (events: stealth ended)', 'damage marked on it', 'bit i: ability i of its definition used this turn', 'incarnation (new on every zone change)', 'deck cards: bit p = player p knows where it lies in the deck (docs/rules.md §17.5); 0 elsewhere', 'current attack (azk_card_attack)', 'current maximum health (azk_card_health)', 'status mask, bit i = STATUS[i] (azk_card_statuses)', 'cards in the deck', 'cards in the hand', 'cards in the discard pile', 'attached weapons', 'cards in the IKZ area', 'cards in the IKZ pile', 'cards being looked at', "the leader's card index", "the gate's card index", "the IKZ token's card index", 'entities played this turn', '1 once the mulligan decision was made', 'deck, bottom first (entry DECK_N-1 is the top)', 'hand in canonical order', 'discard pile, bottom first', 'attached weapons in attachment order', 'garden slots: card index or -1', 'alley slots: card index or -1', 'IKZ area in order', 'IKZ pile, bottom first (entry IKZ_PILE_N-1 is the top)', 'cards being looked at, in the order taken', 'temporary effects stored (live or dead)', 'effect i: its card', 'effect i: 0 attack change, 1 statuses, 2 statuses removed (remove_status, docs/rules.md §16.4)', 'effect i: enum azk_duration (DURATION)', 'effect i: the player whose next turn ends START_OF_NEXT_TURN', 'effect i: attack change (kind 0)', 'effect i: status mask granted (kind 1)', 'effect i: 1 while it applies (its card has not changed incarnation)', '1 when a prompt is pending (phase PROMPT)', 'enum azk_prompt_kind (PROMPT); -1 when none is pending', 'the player who answers; -1 when none is pending', 'number of options', '1 when NO_OP declines', 'option values: card index (CARD, BOTTOM_ORDER, SEARCH, TOP_ORDER), slot code (SLOT), holder code (HOLDER), number', 'the card whose ability is running (VM active), else -1', 'SLOT/HOLDER prompts of PLAY_FREE: the card being placed, else -1', 'owner of the card being placed (SLOT/HOLDER), else the chooser (-1 when none)', "pc of the instruction the pending prompt waits on (a MODE prompt's CHOOSE_MODE: its labels are CardSet.mode_labels(pc)), else -1")
EXPORT_ARGS = ((1,), (1,), (1,), (1,), (1,), (1,), (1,), (1,), (1,), (1,), (1,), (1,), (1,), (1,), (1,), (1,), (4,), (1,), (1,), (1,), (1,), (1,), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS * AZK_DECK_CAP',), ('AZK_PLAYERS * AZK_HAND_CAP',), ('AZK_PLAYERS * AZK_DISCARD_CAP',), ('AZK_PLAYERS * AZK_WEAPON_CAP',), ('AZK_PLAYERS * AZK_ROW',), ('AZK_PLAYERS * AZK_ROW',), ('AZK_PLAYERS * AZK_IKZ_AREA_CAP',), ('AZK_PLAYERS * AZK_DECK_IKZ',), ('AZK_PLAYERS * AZK_LOOK_CAP',), (1,), ('AZK_MAX_EFFECTS',), ('AZK_MAX_EFFECTS',), ('AZK_MAX_EFFECTS',), ('AZK_MAX_EFFECTS',), ('AZK_MAX_EFFECTS',), ('AZK_MAX_EFFECTS',), ('AZK_MAX_EFFECTS',), (1,), (1,), (1,), (1,), (1,), ('AZK_MAX_OPTIONS',), (1,), (1,), (1,), (1,))
EXPORT_VERSION = 0
EXPORT_SIZE = 1
EXPORT_NUM_CARDS = 2
EXPORT_CARDS_PER_PLAYER = 3
EXPORT_PLAYERS = 4
EXPORT_TURN = 5
EXPORT_TURN_CAP = 6
EXPORT_DECISIONS = 7
EXPORT_DECISION_CAP = 8
EXPORT_ACTIVE = 9
EXPORT_FIRST_PLAYER = 10
EXPORT_PHASE = 11
EXPORT_RESULT = 12
EXPORT_END_REASON = 13
EXPORT_CURRENT_PLAYER = 14
EXPORT_WINNER = 15
EXPORT_RNG = 16
EXPORT_TRIGGERS_N = 17
EXPORT_IN_ATTACK = 18
EXPORT_ATTACKER = 19
EXPORT_TARGET = 20
EXPORT_DEFENDER_USED = 21
EXPORT_CARD_DEF = 22
EXPORT_CARD_OWNER = 23
EXPORT_CARD_ZONE = 24
EXPORT_CARD_POS = 25
EXPORT_CARD_HOLDER = 26
EXPORT_CARD_FLAGS = 27
EXPORT_CARD_DAMAGE = 28
EXPORT_CARD_ONCE_USED = 29
EXPORT_CARD_INCARNATION = 30
EXPORT_CARD_SEEN = 31
EXPORT_CARD_ATTACK = 32
EXPORT_CARD_HEALTH = 33
EXPORT_CARD_STATUSES = 34
EXPORT_DECK_N = 35
EXPORT_HAND_N = 36
EXPORT_DISCARD_N = 37
EXPORT_WEAPONS_N = 38
EXPORT_IKZ_AREA_N = 39
EXPORT_IKZ_PILE_N = 40
EXPORT_LOOK_N = 41
EXPORT_LEADER = 42
EXPORT_GATE = 43
EXPORT_TOKEN = 44
EXPORT_PLAYED_ENTITIES = 45
EXPORT_MULLIGAN_DONE = 46
EXPORT_DECK = 47
EXPORT_HAND = 48
EXPORT_DISCARD = 49
EXPORT_WEAPONS = 50
EXPORT_GARDEN = 51
EXPORT_ALLEY = 52
EXPORT_IKZ_AREA = 53
EXPORT_IKZ_PILE = 54
EXPORT_LOOK = 55
EXPORT_EFFECTS_N = 56
EXPORT_FX_CARD = 57
EXPORT_FX_KIND = 58
EXPORT_FX_DURATION = 59
EXPORT_FX_CREATOR = 60
EXPORT_FX_AMOUNT = 61
EXPORT_FX_STATUS = 62
EXPORT_FX_LIVE = 63
EXPORT_PROMPT_PENDING = 64
EXPORT_PROMPT_KIND = 65
EXPORT_PROMPT_CHOOSER = 66
EXPORT_PROMPT_N = 67
EXPORT_PROMPT_OPTIONAL = 68
EXPORT_PROMPT_OPT = 69
EXPORT_PROMPT_SOURCE = 70
EXPORT_PROMPT_PLACING = 71
EXPORT_PROMPT_PLACING_OWNER = 72
EXPORT_PROMPT_PC = 73

INV = ('CARDSET_FACTS', 'ENUM_RANGE', 'PLAYER_RANGE', 'RESULT_PHASE', 'RESULT_FLOW', 'PHASE_FLOW', 'LETHAL_AT_DECISION', 'END_REASON', 'CAPS', 'RNG_STREAM', 'CARD_RECORD', 'WEAPON_HOLDER_FIELD', 'LEADER_GATE_TYPE', 'IKZ_ZONE_TYPE', 'SPECIAL_ZONE_TYPE', 'MAIN_ZONE_TYPE', 'MARKS_ON_FIELD', 'SEEN_IN_DECK', 'FIXED_CARDS', 'LEADER_GATE_ZONE', 'DECK_LIST', 'HAND_LIST', 'DISCARD_LIST', 'WEAPON_LIST', 'IKZ_AREA_LIST', 'IKZ_PILE_LIST', 'LOOK_LIST', 'ROW_INDEX', 'ROW_RECORD', 'ROW_TYPE', 'HAND_ORDER', 'WEAPON_HOLDER', 'WEAPON_TYPE', 'IKZ_AREA_TYPE', 'IKZ_CONSERVED', 'ONE_RESOLVING', 'SPECIAL_ZONE_ONCE', 'CONSERVATION', 'QUEUE_COUNTS', 'EFFECT_RECORD', 'TRIGGER_RECORD', 'TRIGGER_CONTEXT', 'TRIGGER_PROGRAM', 'TRIGGER_OWN_ABILITY', 'VM_FRAME', 'VM_PC', 'VM_CONTEXT', 'VM_SPELL', 'VM_TREGS', 'VM_EACH', 'VM_ABILITY_PROGRAM', 'VM_PC_BOUNDARY', 'PROMPT_PHASE', 'PROMPT_RANGE', 'PROMPT_CHOICE', 'PROMPT_OPCODE', 'PROMPT_CARD_OPTIONS', 'PROMPT_OPTION_RANGE', 'ANSWER_CONSUMED', 'ANSWER_RANGE', 'COMBAT_RANGE', 'LEGAL_COUNT', 'LEGAL_SET', 'LEGAL_WORDS', 'AT_RISK_HINT', 'HINTS_EXACT', 'VM_STACK', 'FX_HINT')
INV_DOC = ("the card set's derived tables match its data (azk_cardset_finish ran last)", 'result, phase and flow are in range', 'active and first player are 0 or 1', 'the game is ongoing exactly when the phase is not GAME_OVER', 'the game is ongoing exactly when the turn machine is not over', "the decision being asked agrees with the turn machine's position", 'no decision is offered while an entity without godmode has damage >= health or a leader is at 0 or less (rules 9, 13.4)', 'the end reason agrees with the result (rules 13)', 'turn and decision caps are in range and an ongoing game is below its decision cap', "the RNG's increment is odd, as seeding makes it (an even one can cycle, and bounded draws then never end)", "every card's definition, owner and zone are in range", 'exactly the attached weapons have a holder', 'leader and gate zones hold a leader and a gate', 'IKZ zones hold IKZ cards only', 'the resolving zone holds a spell, out of game holds IKZ or main-deck cards', 'deck, hand, discard, rows, weapons and look hold main-deck cards only', 'once-per-turn marks and cooldown exist only on leader, gate, row and weapon cards', 'deck-position knowledge (azk_card.seen) is only on deck cards, one bit per player', "leader, gate and token are each player's fixed card indices", 'the leader and the gate are in their zones', 'the deck array names exactly its cards, in position order, within capacity', 'the hand array names exactly its cards, in position order, within capacity', 'the discard array names exactly its cards, in position order, within capacity', 'the weapon array names exactly the attached weapons, within capacity', 'the IKZ area array names exactly its cards, within capacity', 'the IKZ pile array names exactly its cards, within capacity', 'the look array names exactly the looked-at cards, within capacity', 'a row slot names a card index once', "a row slot's card records that row and slot", 'rows hold entities only', 'the hand is in canonical order (definition, then card index)', "a weapon's holder is its owner's leader or garden entity", 'attached cards are weapons', 'the IKZ area holds IKZ cards only', "each player's 10 IKZ cards and token are all accounted for", 'at most one spell resolves, and in an ongoing game only while the VM runs it', 'a card out of game, aside or resolving is in no array', 'every physical card is in exactly one zone', 'live effects and queued triggers are within capacity', 'every live effect names a card, kind, duration and creator in range', 'every queued trigger names a source, ability and controller in range', "a queued trigger's context card is none or in range", "a queued trigger's ability has a program", "a queued trigger names a triggered ability of its source's own definition, under its owner", 'the running ability, its source and controller are in range', "the VM's pc and for-each cursor are in range", "the VM's context card is none or in range", "the VM's resolving spell is none or in range", "the VM's card registers are none or in range", 'the for-each snapshot names cards in range', 'the running ability has a program', "the VM's pc is an instruction of the running ability's program", 'a prompt is pending exactly when the VM waits on one', "the prompt's kind, chooser and option count are in range", 'a prompt offers at least two answers (rules 12)', 'the prompt is the one the instruction at pc asks', 'a card prompt has options', 'every prompt option is in range for its kind', 'an answer is consumed in the step that gives it', 'a pending answer is -1 (declined) or a card-sized value', 'attacker and target are in range during an attack', 'the legal-action cache has as many actions as a fresh enumeration', 'the legal-action cache is exactly a fresh enumeration', "the legal-action cache's word summary is exact", 'the state-check hint covers every entity at or above its lowest health in damage', 'the untapped-IKZ, activated-source, occupancy and listener hints are exact', 'the frames suspended by trigger_ability are in range, running and not waiting; unused ones are zero', 'the effect-records hint names every card an effect record names')
INV_ARGS = ((-5,), (-10,), (-11,), (-12,), (-13,), (-14,), (-15,), (-16,), (-17,), (-18,), (-20,), (-21,), (-22,), (-23,), (-24,), (-25,), (-26,), (-27,), (-30,), (-31,), (-32,), (-33,), (-34,), (-35,), (-36,), (-37,), (-38,), (-40,), (-41,), (-42,), (-43,), (-44,), (-45,), (-46,), (-47,), (-52,), (-50,), (-51,), (-60,), (-61,), (-62,), (-63,), (-64,), (-65,), (-70,), (-71,), (-72,), (-73,), (-74,), (-75,), (-76,), (-77,), (-80,), (-81,), (-82,), (-83,), (-84,), (-85,), (-86,), (-87,), (-90,), (-95,), (-96,), (-97,), (-98,), (-99,), (-100,), (-101,))
INV_CARDSET_FACTS = -5
INV_ENUM_RANGE = -10
INV_PLAYER_RANGE = -11
INV_RESULT_PHASE = -12
INV_RESULT_FLOW = -13
INV_PHASE_FLOW = -14
INV_LETHAL_AT_DECISION = -15
INV_END_REASON = -16
INV_CAPS = -17
INV_RNG_STREAM = -18
INV_CARD_RECORD = -20
INV_WEAPON_HOLDER_FIELD = -21
INV_LEADER_GATE_TYPE = -22
INV_IKZ_ZONE_TYPE = -23
INV_SPECIAL_ZONE_TYPE = -24
INV_MAIN_ZONE_TYPE = -25
INV_MARKS_ON_FIELD = -26
INV_SEEN_IN_DECK = -27
INV_FIXED_CARDS = -30
INV_LEADER_GATE_ZONE = -31
INV_DECK_LIST = -32
INV_HAND_LIST = -33
INV_DISCARD_LIST = -34
INV_WEAPON_LIST = -35
INV_IKZ_AREA_LIST = -36
INV_IKZ_PILE_LIST = -37
INV_LOOK_LIST = -38
INV_ROW_INDEX = -40
INV_ROW_RECORD = -41
INV_ROW_TYPE = -42
INV_HAND_ORDER = -43
INV_WEAPON_HOLDER = -44
INV_WEAPON_TYPE = -45
INV_IKZ_AREA_TYPE = -46
INV_IKZ_CONSERVED = -47
INV_ONE_RESOLVING = -52
INV_SPECIAL_ZONE_ONCE = -50
INV_CONSERVATION = -51
INV_QUEUE_COUNTS = -60
INV_EFFECT_RECORD = -61
INV_TRIGGER_RECORD = -62
INV_TRIGGER_CONTEXT = -63
INV_TRIGGER_PROGRAM = -64
INV_TRIGGER_OWN_ABILITY = -65
INV_VM_FRAME = -70
INV_VM_PC = -71
INV_VM_CONTEXT = -72
INV_VM_SPELL = -73
INV_VM_TREGS = -74
INV_VM_EACH = -75
INV_VM_ABILITY_PROGRAM = -76
INV_VM_PC_BOUNDARY = -77
INV_PROMPT_PHASE = -80
INV_PROMPT_RANGE = -81
INV_PROMPT_CHOICE = -82
INV_PROMPT_OPCODE = -83
INV_PROMPT_CARD_OPTIONS = -84
INV_PROMPT_OPTION_RANGE = -85
INV_ANSWER_CONSUMED = -86
INV_ANSWER_RANGE = -87
INV_COMBAT_RANGE = -90
INV_LEGAL_COUNT = -95
INV_LEGAL_SET = -96
INV_LEGAL_WORDS = -97
INV_AT_RISK_HINT = -98
INV_HINTS_EXACT = -99
INV_VM_STACK = -100
INV_FX_HINT = -101

KEYWORD = ('CHARGE', 'DEFENDER', 'INFILTRATE', 'GODMODE', 'EFFECT_IMMUNE', 'LIFESTEAL', 'POISONOUS', 'STEALTH')
KEYWORD_DOC = ('may attack during the turn it entered the garden', 'may be tapped in response step (b) to become the target', 'when it attacks, response step (b) is skipped', 'does not leave the field because of damage or card effects', 'cannot take damage from card effects', "damage it deals heals its controller's leader by the amount dealt (rules 15.4)", 'an entity it deals damage to is destroyed (rules 15.4)', "cannot be attacked or chosen by the opponent's effects until it attacks (rules 15.4)")
KEYWORD_CHARGE = 0
KEYWORD_DEFENDER = 1
KEYWORD_INFILTRATE = 2
KEYWORD_GODMODE = 3
KEYWORD_EFFECT_IMMUNE = 4
KEYWORD_LIFESTEAL = 5
KEYWORD_POISONOUS = 6
KEYWORD_STEALTH = 7

OBS = ('PHASE', 'STEP', 'DECIDER', 'FLAGS', 'TURN', 'TURN_FRAC', 'DECISIONS_FRAC', 'RESULT', 'PROMPT_KIND', 'PROMPT_N', 'PROMPT_SOURCE_SIDE', 'PROMPT_SOURCE_CARD', 'PROMPT_PLACING_CARD', 'ATTACKER', 'TARGET', 'HAND_N', 'DECK_N', 'DISCARD_N', 'IKZ_UNTAPPED', 'IKZ_TAPPED', 'IKZ_PILE_N', 'LOOK_N', 'PLAYED_ENTITIES', 'WEAPONS_N', 'TOKEN', 'MULLIGAN_DONE', 'PLACE_CARD', 'PLACE_ATTACK', 'PLACE_HEALTH', 'PLACE_DAMAGE', 'PLACE_FLAGS', 'PLACE_STATUS', 'PLACE_WEAPONS', 'PLACE_WEAPON_BONUS', 'PLACE_ONCE_USED', 'HAND_CARD', 'HAND_COST', 'OPP_HAND_KNOWN', 'DECK', 'DECK_TOP', 'DECK_OPP_KNOWS', 'OPP_DECK_TOP', 'OPP_UNSEEN', 'DISCARD', 'LOOK', 'OPT_CARD', 'OPT_SIDE', 'OPT_ZONE', 'OPT_PLACE', 'OPT_NUMBER', 'MASK', 'PAD')
OBS_DOC = ('phase, in PHASE order (MULLIGAN, MAIN, RESPONSE, DEFENDER, PROMPT, GAME_OVER)', 'sub-step of the turn machine (enum azk_flow, game.h: MULLIGAN, START, START_DRAW, MAIN, RESPONSE, DEFENDER, WHEN_ATTACKED, DAMAGE, AFTER_ATTACK, END, END_CLEANUP, OVER): where play goes on once no effect is running', 'who decides now: 0 me, 1 the opponent, 2 nobody (game over)', 'bit 0 my turn (I am the active player), bit 1 I took the first turn, bit 2 an attack is going on, bit 3 a defender was declared in it, bit 4 I answer the pending prompt, bit 5 NO_OP declines my prompt', "turn number (1 = the first player's first turn)", 'how far the game is to its turn cap: (int)(127 * turn / turn cap + 0.5), at most 127', 'how far the game is to its decision cap: (int)(127 * decisions / decision cap + 0.5), at most 127', 'the result from my side: 0 the game goes on, 1 I won, 2 I lost, 3 draw, 4 truncated', 'the pending prompt: 0 none, else 1 + its kind in PROMPT order (both players see that a prompt is pending)', 'number of options of my prompt (0 when the prompt is not mine): options 0..n-1 exist (CHOOSE i)', "whose ability is running while a prompt is pending: 0 none, 1 mine, 2 the opponent's", 'the card whose ability is running, when I may know it', 'SLOT/HOLDER prompts: the card an effect is placing, when I may know it', "the attacker's place during an attack, 0 otherwise", "the attack target's place during an attack, 0 otherwise", 'cards in hand', 'cards in the deck', 'cards in the discard pile', 'untapped cards in the IKZ area (what can be paid now), the token included', 'tapped cards in the IKZ area', 'cards in the face-down IKZ pile', "cards being looked at by that player during an effect (the opponent's: only their number)", 'entities played this turn (rules §5.7)', 'attached weapons (all holders)', 'the IKZ token: 0 set aside (not gained yet), 1 in the IKZ area, 2 used (out of game)', '1 once the mulligan decision was made', 'the card standing there (public); 0 empty (leader and gate: never)', 'current attack, as the rules compute it (weapons, effects, statics; effects can make it negative); gate: 0', 'current maximum health (gate: 0)', "damage marked on it (a leader's never goes away); health left is PLACE_HEALTH - PLACE_DAMAGE", 'bit 0 tapped (a gate is tapped once it portaled this turn), bit 1 cooldown (the entity entered the garden this turn, rules §5.5)', 'statuses (keywords and conditions): bit i = STATUS[i]', 'weapons attached to it', "sum of the attached weapons' bonuses", 'bit i: ability i of its definition was used this turn (once per turn, rules §8.6)', 'my hand in canonical order; 0 past the hand', 'what the card at hand index i costs now, cost modifiers applied (rules §18.4); 0 past the hand', "the cards in the opponent's hand that I know (revealed into it, rules §8.9, or returned to it from the field), sorted by definition: never at their hand positions, whose canonical order would tell the unknown cards' definitions", "my deck's contents, sorted by definition (its order is hidden)", 'my deck from the top: entry i is the card i-th from the top when I know it (I ordered the top or put it at the bottom, a card was put there in public, a searched card), else 0; the same knowledge from the bottom: entry DECK_N - 1 - i', 'my deck from the top: bit i where the opponent knows the card i-th from the top (it was put there in public, or found by a search)', "the opponent's deck from the top: entry i is the card i-th from the top when I know it, else 0", "the opponent's main-deck cards I cannot see (unknown part of its hand, the cards of its deck I do not know, its looked-at cards), sorted by definition", 'discard piles (public), in pile order (entry 0 went there first)', 'the cards I am looking at during an effect, sorted by definition', "the option's card (CARD, BOTTOM_ORDER, SEARCH, TOP_ORDER prompts), when I may know it (a SEARCH: always, my own deck)", "whose card or place the option names: 0 none, 1 mine, 2 the opponent's", "zone of the option's card: 0 none, else 1 + its zone in ZONE order", "the place the option names: a card on the field (a weapon: its holder's place), a SLOT option's slot, a HOLDER option's holder", 'NUMBER and MODE options: the value; YES_NO: 1 for yes, 0 for no', 'legal-action mask when I decide, bit a = flat action id a (equal to azk_legal_mask / Game.action_mask); all 0 when I do not', 'always 0: pads the observation to a multiple of 8 bytes')
OBS_ARGS = ((1, 1, 'ENUM', 'AZK_PHASE_COUNT'), (1, 1, 'ENUM', 'AZK_FLOW_COUNT_'), (1, 1, 'ENUM', 3), (1, 1, 'BITS', 6), (1, 1, 'NUM', 30), (1, 1, 'NUM', 127), (1, 1, 'NUM', 127), (1, 1, 'ENUM', 5), (1, 1, 'ENUM', 'AZK_PK_COUNT + 1'), (1, 1, 'NUM', 'AZK_MAX_OPTIONS'), (1, 1, 'ENUM', 3), (1, 1, 'ID', 'AZK_MAX_CARD_DEFS + 1'), (1, 1, 'ID', 'AZK_MAX_CARD_DEFS + 1'), (1, 1, 'PLACE', 'AZK_OBS_PLACE_ROWS + 1'), (1, 1, 'PLACE', 'AZK_OBS_PLACE_ROWS + 1'), (2, 1, 'NUM', 10), (2, 1, 'NUM', 'AZK_DECK_CAP'), (2, 1, 'NUM', 'AZK_DISCARD_CAP'), (2, 1, 'NUM', 'AZK_IKZ_AREA_CAP'), (2, 1, 'NUM', 'AZK_IKZ_AREA_CAP'), (2, 1, 'NUM', 'AZK_DECK_IKZ'), (2, 1, 'NUM', 'AZK_LOOK_CAP'), (2, 1, 'NUM', 10), (2, 1, 'NUM', 10), (2, 1, 'ENUM', 3), (2, 1, 'ENUM', 2), ('AZK_OBS_PLACE_ROWS', 1, 'ID', 'AZK_MAX_CARD_DEFS + 1'), ('AZK_OBS_PLACE_ROWS', 1, 'SNUM', 10), ('AZK_OBS_PLACE_ROWS', 1, 'NUM', 20), ('AZK_OBS_PLACE_ROWS', 1, 'NUM', 20), ('AZK_OBS_PLACE_ROWS', 1, 'BITS', 2), ('AZK_OBS_PLACE_ROWS', 2, 'BITS', 'AZK_STI_COUNT'), ('AZK_OBS_PLACE_ROWS', 1, 'NUM', 4), ('AZK_OBS_PLACE_ROWS', 1, 'SNUM', 10), ('AZK_OBS_PLACE_ROWS', 1, 'BITS', 'AZK_MAX_CARD_ABILITIES'), (1, 'AZK_HAND_CAP', 'ID', 'AZK_MAX_CARD_DEFS + 1'), (1, 'AZK_HAND_CAP', 'NUM', 10), (1, 'AZK_HAND_CAP', 'ID', 'AZK_MAX_CARD_DEFS + 1'), (1, 'AZK_DECK_CAP', 'ID', 'AZK_MAX_CARD_DEFS + 1'), (1, 'AZK_DECK_CAP', 'ID', 'AZK_MAX_CARD_DEFS + 1'), (1, '(AZK_DECK_CAP + 7) / 8', 'BITS', 'AZK_DECK_CAP'), (1, 'AZK_DECK_CAP', 'ID', 'AZK_MAX_CARD_DEFS + 1'), (1, 'AZK_DECK_CAP', 'ID', 'AZK_MAX_CARD_DEFS + 1'), (2, 'AZK_DISCARD_CAP', 'ID', 'AZK_MAX_CARD_DEFS + 1'), (1, 'AZK_LOOK_CAP', 'ID', 'AZK_MAX_CARD_DEFS + 1'), ('AZK_MAX_OPTIONS', 1, 'ID', 'AZK_MAX_CARD_DEFS + 1'), ('AZK_MAX_OPTIONS', 1, 'ENUM', 3), ('AZK_MAX_OPTIONS', 1, 'ENUM', 'AZK_Z_COUNT + 1'), ('AZK_MAX_OPTIONS', 1, 'PLACE', 'AZK_OBS_PLACE_ROWS + 1'), ('AZK_MAX_OPTIONS', 1, 'NUM', 'AZK_MAX_OPTIONS'), (1, '(AZK_NUM_ACTIONS_ + 7) / 8', 'BITS', 'AZK_NUM_ACTIONS_'), (1, 'AZK_OBS_PAD_', 'ENUM', 1))
OBS_PHASE = 0
OBS_STEP = 1
OBS_DECIDER = 2
OBS_FLAGS = 3
OBS_TURN = 4
OBS_TURN_FRAC = 5
OBS_DECISIONS_FRAC = 6
OBS_RESULT = 7
OBS_PROMPT_KIND = 8
OBS_PROMPT_N = 9
OBS_PROMPT_SOURCE_SIDE = 10
OBS_PROMPT_SOURCE_CARD = 11
OBS_PROMPT_PLACING_CARD = 12
OBS_ATTACKER = 13
OBS_TARGET = 14
OBS_HAND_N = 15
OBS_DECK_N = 16
OBS_DISCARD_N = 17
OBS_IKZ_UNTAPPED = 18
OBS_IKZ_TAPPED = 19
OBS_IKZ_PILE_N = 20
OBS_LOOK_N = 21
OBS_PLAYED_ENTITIES = 22
OBS_WEAPONS_N = 23
OBS_TOKEN = 24
OBS_MULLIGAN_DONE = 25
OBS_PLACE_CARD = 26
OBS_PLACE_ATTACK = 27
OBS_PLACE_HEALTH = 28
OBS_PLACE_DAMAGE = 29
OBS_PLACE_FLAGS = 30
OBS_PLACE_STATUS = 31
OBS_PLACE_WEAPONS = 32
OBS_PLACE_WEAPON_BONUS = 33
OBS_PLACE_ONCE_USED = 34
OBS_HAND_CARD = 35
OBS_HAND_COST = 36
OBS_OPP_HAND_KNOWN = 37
OBS_DECK = 38
OBS_DECK_TOP = 39
OBS_DECK_OPP_KNOWS = 40
OBS_OPP_DECK_TOP = 41
OBS_OPP_UNSEEN = 42
OBS_DISCARD = 43
OBS_LOOK = 44
OBS_OPT_CARD = 45
OBS_OPT_SIDE = 46
OBS_OPT_ZONE = 47
OBS_OPT_PLACE = 48
OBS_OPT_NUMBER = 49
OBS_MASK = 50
OBS_PAD = 51

OP = ('END', 'JMP', 'JZ', 'SETI', 'ADDI', 'ADD', 'SUB', 'MIN', 'GE', 'GEI', 'LEI', 'NOT', 'COUNT', 'CTX', 'VALID', 'MATCH', 'LOAD', 'CHOOSE', 'MAY', 'CHOOSE_NUM', 'DAMAGE', 'MOD_ATTACK', 'GRANT', 'DRAW', 'MILL', 'DISCARD', 'RETURN', 'LOOK', 'TO_HAND', 'BOTTOM_LOOKED', 'PLAY_FREE', 'UNTAP_IKZ', 'TAP', 'SACRIFICE', 'FOREACH', 'NEXT', 'RETURN_COST', 'COUNT_GE', 'MUL', 'MAX', 'ABS', 'STAT', 'RANDOM', 'CHOOSE_MODE', 'JTAB', 'HEAL', 'UNTAP', 'COOLDOWN', 'REMOVE_STATUS', 'SWAP', 'MOVE', 'PORTAL', 'ATTACH', 'RUN_ABILITY', 'DESTROY', 'WIN', 'LOSE', 'SEARCH', 'SHUFFLE', 'TOP_LOOKED', 'PUT_ON_DECK', 'CAN_CHOOSE')
OP_DOC = ('finish the program (condition programs return R[0] != 0)', 'pc = off', 'if R[a] == 0: pc = off(b,c)', 'R[a] = (int8)b', 'R[a] += (int8)b', 'R[a] += R[b]', 'R[a] -= R[b]', 'R[a] = min(R[a], R[b])', 'R[a] = R[a] >= R[b]', 'R[a] = R[a] >= (int8)b', 'R[a] = R[a] <= (int8)b', 'R[a] = !R[a]', 'R[a] = number of cards matching selector b', 'R[a] = context value b (enum azk_ctx_value)', 'R[a] = T[b] still names the same object (RULES 2.1)', 'R[a] = T[b] is valid and matches selector c', 'T[a] = the card named by reference b (enum azk_ref)', 'T[a] = a card matching selector b, chosen by the controller; c: 1 = may decline; no candidate -> T[a] empty', 'R[a] = 1 if the controller says yes, else 0', 'R[a] = a number in [0, max(R[b],0)] chosen by the controller', 'deal R[b] effect damage to T[a] (RULES 7)', 'T[a] gets (int8)b attack for duration c', 'T[a] gets status bits b for duration c', 'the controller draws R[a] cards (RULES 9: empty deck loses)', "the top R[a] cards of the controller's deck go to the discard pile", "T[a] goes from its zone to its owner's discard pile", "T[a] returns to its owner's hand (godmode: nothing)", "the top R[a] cards of the controller's deck are looked at", "T[a] (looked at or in a pile) goes to its owner's hand, revealed", "the looked-at cards go to the bottom, one at a time in the controller's chosen order", 'the controller plays T[a] without paying IKZ (RULES 5.7); b: 1 garden, 2 alley, 3 either', 'untap R[a] tapped IKZ cards of the controller', 'tap T[a]', "T[a] goes to its owner's discard pile (a cost: godmode does not stop it)", 'snapshot the cards matching selector b; T[a] = first; none: pc = off(c,d)', 'T[a] = next snapshot card that has not changed zone; pc = off(b,c) while one remains', "T[a] returns to its owner's hand as a cost its controller pays: godmode does not stop it (RULES 7)", 'R[a] = (number of cards matching selector b) >= (int8)c: at least c match (the condition fast path)', 'R[a] = R[a] * R[b] (saturating)', 'R[a] = max(R[a], R[b])', 'R[a] = |R[a]| (saturating)', 'R[a] = statistic c of T[b] as the rules compute it now (azk_attack_of, azk_health_of, damage, GP, cost); 0 when T[b] no longer names that object', "R[a] = an integer uniform in [R[a], R[b]] from the game's rng (R[b] < R[a]: R[a] unchanged, no draw)", 'R[a] = a mode i < c with bit i of R[b] set, chosen by the controller (MODE prompt, option value i); none: -1; one: taken without asking', 'jump table: 0 <= R[a] < b: pc = off + 3 * R[a] (b JMP instructions at off); else pc = next', 'remove up to R[b] damage from T[a] on the field (damage never below 0)', 'untap T[a] on the field', 'b = 1: garden entity T[a] gets cooldown (RULES 5.5); b = 0: T[a] loses it', 'T[a] loses status bits b (printed keywords and conditions) for duration c', 'row entities T[a] and T[b] of one owner exchange places (entering the garden gives cooldown)', "row entity T[a] moves to an empty slot of its owner's garden (b=1), alley (2) or either (3), chosen (SLOT prompt)", "own alley entity T[a] is portaled (RULES 5.6) to a chosen garden slot (SLOT prompt), the gate is not tapped; the gate's portal ability triggers", 'weapon T[a] (hand, discard, looked at or attached) attaches to a holder of its owner, chosen (HOLDER prompt); not played', "resolve ability b of T[a]'s card as this ability's (a nested frame, AZK_VM_DEPTH; deeper ends the game TRUNCATED, VM_DEPTH)", 'destroy T[a], an entity in a garden or alley (rules 15.3: godmode stops it, replacements apply, on_destroyed fires)', 'the controller wins the game at the next state check: after the next field change, before any question, or when the ability ends (rules 15.6)', 'the controller loses the game at the next state check, as WIN (rules 15.6)', "T[a] = a card of the controller's deck matching selector b (the verifier requires a selector without zones; its side is not read), chosen by the controller: identical copies offered once, the controller may always fail to find (NO_OP); no match -> T[a] empty, no question; the card found is revealed (known to both players where it lies)", "shuffle a deck (a: 0 the controller's, 1 the opponent's): nobody knows any position in it afterwards", "the looked-at cards go back on top, one at a time in the controller's chosen order, each on top of the previous one (the last chosen is the top card)", "T[a] goes on top (b = 0) or to the bottom (b = 1) of its owner's deck from hand, field, discard pile or look zone (godmode on the field: nothing); the players who knew the card know it there", "R[a] = 1 if a CHOOSE from selector b by this controller would have a candidate (as CHOOSE counts them: the opponent's stealthed entities are none, rules 15.4), else 0: the play condition the compiler derives from a mandatory choice (rules 5.4, 8.7)")
OP_ARGS = (('()', 'PURE'), ('(OFF)', 'PURE'), ('(R, OFF)', 'PURE'), ('(R, I8)', 'PURE'), ('(R, I8)', 'PURE'), ('(R, R)', 'PURE'), ('(R, R)', 'PURE'), ('(R, R)', 'PURE'), ('(R, R)', 'PURE'), ('(R, I8)', 'PURE'), ('(R, I8)', 'PURE'), ('(R)', 'PURE'), ('(R, SEL)', 'PURE'), ('(R, CTXV)', 'PURE'), ('(R, T)', 'PURE'), ('(R, T, SEL)', 'PURE'), ('(T, REF)', 'PURE'), ('(T, SEL, FLAG)', 'ASK'), ('(R)', 'ASK'), ('(R, R)', 'ASK'), ('(T, R)', 'FIELD'), ('(T, I8, DUR)', 'EFFECT'), ('(T, STATUS, DUR)', 'FIELD'), ('(R)', 'FIELD'), ('(R)', 'FIELD'), ('(T)', 'FIELD'), ('(T)', 'FIELD'), ('(R)', 'FIELD'), ('(T)', 'FIELD'), ('()', 'ASK_FIELD'), ('(T, PLACE)', 'ASK_FIELD'), ('(R)', 'FIELD'), ('(T)', 'FIELD'), ('(T)', 'FIELD'), ('(T, SEL, OFF)', 'LOOP'), ('(T, OFF)', 'LOOP'), ('(T)', 'FIELD'), ('(R, SEL, I8)', 'PURE'), ('(R, R)', 'PURE'), ('(R, R)', 'PURE'), ('(R)', 'PURE'), ('(R, T, STAT)', 'PURE'), ('(R, R)', 'EFFECT'), ('(R, R, NMODES)', 'ASK'), ('(R, NMODES, OFF)', 'PURE'), ('(T, R)', 'FIELD'), ('(T)', 'FIELD'), ('(T, FLAG)', 'EFFECT'), ('(T, STATUS, DUR)', 'FIELD'), ('(T, T)', 'FIELD'), ('(T, PLACE)', 'ASK_FIELD'), ('(T)', 'ASK_FIELD'), ('(T)', 'ASK_FIELD'), ('(T, TRIG)', 'EFFECT'), ('(T)', 'FIELD'), ('()', 'EFFECT'), ('()', 'EFFECT'), ('(T, SEL)', 'ASK_FIELD'), ('(FLAG)', 'EFFECT'), ('()', 'ASK_FIELD'), ('(T, FLAG)', 'FIELD'), ('(R, SEL)', 'PURE'))
OP_END = 0
OP_JMP = 1
OP_JZ = 2
OP_SETI = 3
OP_ADDI = 4
OP_ADD = 5
OP_SUB = 6
OP_MIN = 7
OP_GE = 8
OP_GEI = 9
OP_LEI = 10
OP_NOT = 11
OP_COUNT = 12
OP_CTX = 13
OP_VALID = 14
OP_MATCH = 15
OP_LOAD = 16
OP_CHOOSE = 17
OP_MAY = 18
OP_CHOOSE_NUM = 19
OP_DAMAGE = 20
OP_MOD_ATTACK = 21
OP_GRANT = 22
OP_DRAW = 23
OP_MILL = 24
OP_DISCARD = 25
OP_RETURN = 26
OP_LOOK = 27
OP_TO_HAND = 28
OP_BOTTOM_LOOKED = 29
OP_PLAY_FREE = 30
OP_UNTAP_IKZ = 31
OP_TAP = 32
OP_SACRIFICE = 33
OP_FOREACH = 34
OP_NEXT = 35
OP_RETURN_COST = 36
OP_COUNT_GE = 37
OP_MUL = 38
OP_MAX = 39
OP_ABS = 40
OP_STAT = 41
OP_RANDOM = 42
OP_CHOOSE_MODE = 43
OP_JTAB = 44
OP_HEAL = 45
OP_UNTAP = 46
OP_COOLDOWN = 47
OP_REMOVE_STATUS = 48
OP_SWAP = 49
OP_MOVE = 50
OP_PORTAL = 51
OP_ATTACH = 52
OP_RUN_ABILITY = 53
OP_DESTROY = 54
OP_WIN = 55
OP_LOSE = 56
OP_SEARCH = 57
OP_SHUFFLE = 58
OP_TOP_LOOKED = 59
OP_PUT_ON_DECK = 60
OP_CAN_CHOOSE = 61

OPERAND = ('_', 'R', 'T', 'SEL', 'REF', 'CTXV', 'DUR', 'STATUS', 'I8', 'FLAG', 'PLACE', 'OFF', 'TRIG', 'STAT', 'NMODES')
OPERAND_DOC = ('no operand (padding of the kind list)', 'R register index, < AZK_REGS', 'T register index, < AZK_TREGS', "selector index, < the set's num_selectors", 'card reference (enum azk_ref), < AZK_REF_COUNT', 'context value (enum azk_ctx_value), < AZK_CTXV_COUNT', 'duration (enum azk_duration), < AZK_DUR_COUNT', 'non-empty enum azk_status_bit mask, u16 little-endian, < 1 << AZK_STI_COUNT', 'small immediate: any byte, read as int8', '0 or 1', 'placement code: 1 garden, 2 alley, 3 either', 'jump target: u16 little-endian absolute pc onto an instruction of the same program', "which ability RUN_ABILITY resolves: low AZK_TRIG_NTH_SHIFT bits the kind, enum azk_trigger (a triggered ability on it), AZK_TRIG_COUNT (its spell ability) or AZK_TRIG_COUNT + 1 (an activated ability); the bits above: n, the card's (n+1)-th ability of that kind in printed order", 'card statistic (enum azk_stat), < AZK_STAT_COUNT', 'number of modes of a choose_mode, 1 .. AZK_MAX_MODES')
OPERAND_ARGS = ((0,), (1,), (1,), (1,), (1,), (1,), (1,), (2,), (1,), (1,), (1,), (2,), (1,), (1,), (1,))
OPERAND__ = 0
OPERAND_R = 1
OPERAND_T = 2
OPERAND_SEL = 3
OPERAND_REF = 4
OPERAND_CTXV = 5
OPERAND_DUR = 6
OPERAND_STATUS = 7
OPERAND_I8 = 8
OPERAND_FLAG = 9
OPERAND_PLACE = 10
OPERAND_OFF = 11
OPERAND_TRIG = 12
OPERAND_STAT = 13
OPERAND_NMODES = 14

PHASE = ('MULLIGAN', 'MAIN', 'RESPONSE', 'DEFENDER', 'PROMPT', 'GAME_OVER')
PHASE_DOC = ('a player chooses keep or mulligan', "the active player's main phase", 'response window step (a): the defender may respond', 'response window step (b): the defender may redirect', 'a player answers a pending prompt', 'the game has ended')
PHASE_MULLIGAN = 0
PHASE_MAIN = 1
PHASE_RESPONSE = 2
PHASE_DEFENDER = 3
PHASE_PROMPT = 4
PHASE_GAME_OVER = 5

PLACE_ROW = ('GARDEN', 'ALLEY')
PLACE_ROW_DOC = ('the garden', 'the alley')
PLACE_ROW_GARDEN = 0
PLACE_ROW_ALLEY = 1

PLAN = ('VERSION', 'TURN', 'ACTIVE', 'FIRST_PLAYER', 'TURN_CAP', 'DECISION_CAP', 'CARD_DEF', 'CARD_ZONE', 'CARD_FLAGS', 'CARD_DAMAGE', 'CARD_ONCE_USED', 'CARD_HOLDER', 'CARD_SEEN', 'PLAYED_ENTITIES', 'DECK_N', 'HAND_N', 'DISCARD_N', 'WEAPONS_N', 'IKZ_AREA_N', 'IKZ_PILE_N', 'DECK', 'HAND', 'DISCARD', 'WEAPONS', 'IKZ_AREA', 'IKZ_PILE', 'GARDEN', 'ALLEY', 'EFFECTS_N', 'FX_CARD', 'FX_KIND', 'FX_DURATION', 'FX_CREATOR', 'FX_AMOUNT', 'FX_STATUS')
PLAN_DOC = ('plan layout version (azk_plan_version())', 'turn number, 1 .. 60000', 'whose main phase it is, 0/1', 'who took the first turn, 0/1', 'turn cap, 1 .. 60000', 'decision cap, 1 .. 60000', 'every physical card: definition index in the card set', 'every physical card: enum azk_zone; must agree with the lists below', 'bit 0 tapped, 1 cooldown, 2 shocked, 3 revealed, 5 exposed (0 .. 15, 32 .. 47)', 'damage, 0 .. 9999', 'once-per-turn marks, 0 .. 255', "attached weapons: the holder's card index; every other card -1", 'deck cards: bit p = player p knows where it lies (0 .. 3); every other card 0', 'entities played this turn, 0 .. 255', 'cards in the deck', 'cards in the hand', 'cards in the discard pile', 'attached weapons', 'cards in the IKZ area', 'cards in the IKZ pile', 'deck, bottom first; own cards; -1 past DECK_N', 'hand in any order (stored in canonical order); -1 past HAND_N', 'discard pile, bottom first; -1 past DISCARD_N', 'attached weapons in attachment order; -1 past WEAPONS_N', 'IKZ area in order; -1 past IKZ_AREA_N', 'IKZ pile, bottom first; -1 past IKZ_PILE_N', 'garden slots: own card index or -1', 'alley slots: own card index or -1', 'temporary effects, 0 .. AZK_MAX_EFFECTS', 'effect i: its card; -1 past EFFECTS_N (all FX_ fields)', 'effect i: 0 attack change, 1 statuses, 2 statuses removed (remove_status, docs/rules.md §16.4)', 'effect i: enum azk_duration (DURATION)', 'effect i: creator, 0/1', 'effect i: attack change, -128 .. 127 (0 for kind 1)', 'effect i: status mask, 0 .. 255 (0 for kind 0)')
PLAN_ARGS = ((1,), (1,), (1,), (1,), (1,), (1,), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_NUM_CARDS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS',), ('AZK_PLAYERS * AZK_DECK_CAP',), ('AZK_PLAYERS * AZK_HAND_CAP',), ('AZK_PLAYERS * AZK_DISCARD_CAP',), ('AZK_PLAYERS * AZK_WEAPON_CAP',), ('AZK_PLAYERS * AZK_IKZ_AREA_CAP',), ('AZK_PLAYERS * AZK_DECK_IKZ',), ('AZK_PLAYERS * AZK_ROW',), ('AZK_PLAYERS * AZK_ROW',), (1,), ('AZK_MAX_EFFECTS',), ('AZK_MAX_EFFECTS',), ('AZK_MAX_EFFECTS',), ('AZK_MAX_EFFECTS',), ('AZK_MAX_EFFECTS',), ('AZK_MAX_EFFECTS',))
PLAN_VERSION = 0
PLAN_TURN = 1
PLAN_ACTIVE = 2
PLAN_FIRST_PLAYER = 3
PLAN_TURN_CAP = 4
PLAN_DECISION_CAP = 5
PLAN_CARD_DEF = 6
PLAN_CARD_ZONE = 7
PLAN_CARD_FLAGS = 8
PLAN_CARD_DAMAGE = 9
PLAN_CARD_ONCE_USED = 10
PLAN_CARD_HOLDER = 11
PLAN_CARD_SEEN = 12
PLAN_PLAYED_ENTITIES = 13
PLAN_DECK_N = 14
PLAN_HAND_N = 15
PLAN_DISCARD_N = 16
PLAN_WEAPONS_N = 17
PLAN_IKZ_AREA_N = 18
PLAN_IKZ_PILE_N = 19
PLAN_DECK = 20
PLAN_HAND = 21
PLAN_DISCARD = 22
PLAN_WEAPONS = 23
PLAN_IKZ_AREA = 24
PLAN_IKZ_PILE = 25
PLAN_GARDEN = 26
PLAN_ALLEY = 27
PLAN_EFFECTS_N = 28
PLAN_FX_CARD = 29
PLAN_FX_KIND = 30
PLAN_FX_DURATION = 31
PLAN_FX_CREATOR = 32
PLAN_FX_AMOUNT = 33
PLAN_FX_STATUS = 34

PROMPT = ('CARD', 'YES_NO', 'NUMBER', 'BOTTOM_ORDER', 'SLOT', 'HOLDER', 'MODE', 'SEARCH', 'TOP_ORDER')
PROMPT_DOC = ('choose a card (target, card to discard, card to pick)', 'option 0 = no, option 1 = yes', 'choose a number: option i means i', 'choose the next looked-at card to put on the bottom', 'choose a slot for a card played by an effect', 'choose a holder for a weapon played by an effect', 'choose one mode of a modal effect: option value i means mode i (labels: Game.prompt())', 'choose a card of your deck (a search; NO_OP fails to find)', 'choose the next looked-at card to put on top of the deck')
PROMPT_CARD = 0
PROMPT_YES_NO = 1
PROMPT_NUMBER = 2
PROMPT_BOTTOM_ORDER = 3
PROMPT_SLOT = 4
PROMPT_HOLDER = 5
PROMPT_MODE = 6
PROMPT_SEARCH = 7
PROMPT_TOP_ORDER = 8

RARITY = ('C', 'UC', 'R', 'SR', 'L', 'G', 'IKZ')
RARITY_DOC = ('Common', 'Uncommon', 'Rare', 'Super rare', 'Leader', 'Gate', 'IKZ')
RARITY_C = 0
RARITY_UC = 1
RARITY_R = 2
RARITY_SR = 3
RARITY_L = 4
RARITY_G = 5
RARITY_IKZ = 6

REF = ('SELF', 'HOLDER', 'SUBJECT', 'OWN_LEADER', 'OPP_LEADER', 'ATTACKER', 'TARGET')
REF_DOC = ("the ability's source card", 'the holder of the source weapon', "the trigger's subject (returned, portaled or equipped-to card; attacker when attacked)", "the controller's leader", "the opponent's leader", 'the attacking card of the current attack', 'the target of the current attack')
REF_SELF = 0
REF_HOLDER = 1
REF_SUBJECT = 2
REF_OWN_LEADER = 3
REF_OPP_LEADER = 4
REF_ATTACKER = 5
REF_TARGET = 6

RESULT = ('ONGOING', 'WIN_P0', 'WIN_P1', 'DRAW', 'TRUNCATED')
RESULT_DOC = ('the game is not over', 'player 0 won', 'player 1 won', 'both leaders fell to one event (D10)', 'the game was cut off, not decided: see the end reason (rules 9, 13)')
RESULT_ONGOING = 0
RESULT_WIN_P0 = 1
RESULT_WIN_P1 = 2
RESULT_DRAW = 3
RESULT_TRUNCATED = 4

SEL_FLAG = ('NOT_SELF', 'HAS_WEAPON', 'TAPPED', 'UNTAPPED', 'ATTACHED_TO_SELF', 'IN_RESPONSE_OK')
SEL_FLAG_DOC = ('another: not the source card', 'at least one weapon attached', 'tapped', 'untapped', 'weapons whose holder is the source', 'reserved')
SEL_FLAG_NOT_SELF = 0
SEL_FLAG_HAS_WEAPON = 1
SEL_FLAG_TAPPED = 2
SEL_FLAG_UNTAPPED = 3
SEL_FLAG_ATTACHED_TO_SELF = 4
SEL_FLAG_IN_RESPONSE_OK = 5

SEL_SIDE = ('SELF', 'OPP')
SEL_SIDE_DOC = ("the controller's cards", "the opponent's cards")
SEL_SIDE_SELF = 0
SEL_SIDE_OPP = 1

SEL_ZONE = ('LEADER', 'GARDEN', 'ALLEY', 'HAND', 'DISCARD', 'WEAPON', 'LOOK', 'IKZ_AREA')
SEL_ZONE_DOC = ('the leader', 'the garden', 'the alley', 'the hand', 'the discard pile', 'attached weapons', 'cards being looked at', 'the IKZ area')
SEL_ZONE_LEADER = 0
SEL_ZONE_GARDEN = 1
SEL_ZONE_ALLEY = 2
SEL_ZONE_HAND = 3
SEL_ZONE_DISCARD = 4
SEL_ZONE_WEAPON = 5
SEL_ZONE_LOOK = 6
SEL_ZONE_IKZ_AREA = 7

STAT = ('ATTACK', 'HEALTH', 'DAMAGE', 'REMAINING', 'GP', 'COST')
STAT_DOC = ('current attack as the rules compute it (azk_attack_of)', 'current maximum health (azk_health_of)', 'damage marked on it', 'current health minus damage', 'printed gate points', 'printed cost')
STAT_ATTACK = 0
STAT_HEALTH = 1
STAT_DAMAGE = 2
STAT_REMAINING = 3
STAT_GP = 4
STAT_COST = 5

STATIC_TARGET = ('SELF', 'SELECTOR', 'AURA', 'COST')
STATIC_TARGET_DOC = ('the source card itself (for a weapon: its bonus)', 'every card matching the selector, relative to the source', "attack / health / grant / remove for every field card matching the selector (leader, garden, alley), relative to the source's controller (rules §18)", 'cost_change for every hand card matching the selector (rules §18.4)')
STATIC_TARGET_SELF = 0
STATIC_TARGET_SELECTOR = 1
STATIC_TARGET_AURA = 2
STATIC_TARGET_COST = 3

STATUS = ('CHARGE', 'DEFENDER', 'INFILTRATE', 'GODMODE', 'EFFECT_IMMUNE', 'LIFESTEAL', 'POISONOUS', 'STEALTH', 'FROZEN', 'SHOCKED')
STATUS_DOC = ('may attack during the turn it entered the garden', 'may be tapped in response step (b) to become the target', 'when it attacks, response step (b) is skipped', 'does not leave the field because of damage or card effects', 'cannot take damage from card effects', "damage it deals heals its controller's leader by the amount dealt (rules 15.4)", 'an entity it deals damage to is destroyed (rules 15.4)', "cannot be attacked or chosen by the opponent's effects until it attacks (rules 15.4)", 'abilities disabled, cannot attack, cannot be damaged', "does not untap in its controller's next untap step")
STATUS_CHARGE = 0
STATUS_DEFENDER = 1
STATUS_INFILTRATE = 2
STATUS_GODMODE = 3
STATUS_EFFECT_IMMUNE = 4
STATUS_LIFESTEAL = 5
STATUS_POISONOUS = 6
STATUS_STEALTH = 7
STATUS_FROZEN = 8
STATUS_SHOCKED = 9

TRIGGER = ('ON_PLAY', 'ON_PLAY_GARDEN', 'ON_PLAY_ALLEY', 'WHEN_EQUIPPING', 'WHEN_ATTACKING', 'WHEN_ATTACKED', 'AFTER_ATTACKING', 'START_OF_TURN', 'END_OF_TURN', 'ENTITY_RETURNED', 'PORTAL', 'ON_DESTROYED', 'ENTITY_DESTROYED', 'ON_DAMAGED', 'ON_DRAW', 'ON_DISCARDED', 'GAME_START', 'ALLY_ENTERS')
TRIGGER_DOC = ('this card was played (from hand or by an effect)', 'this entity was played into the garden', 'this entity was played into the alley', 'this weapon was played and attached', "this card, or this weapon's holder, attacks", 'this card is the target in response step (c)', "this card, or this weapon's holder, finished an attack", 'start of your turn (RULES 4.1 step 3)', 'end of your turn (RULES 4.3 step 1)', "any entity was returned to its owner's hand", 'this gate portaled an entity (RULES 5.6)', 'this card was destroyed (rules 15.2; runs from the discard pile, last-known attack as value)', 'any entity was destroyed (subject: it; value: its last-known attack)', 'this card was dealt damage (value: the amount dealt)', 'its controller drew a card during the game (subject: the drawn card)', "this card was discarded from its owner's hand by an effect (runs from the discard pile)", 'the game starts: after both mulligans, before turn 1 (rules 15.2)', "another entity entered its controller's garden (subject: that entity)")
TRIGGER_ON_PLAY = 0
TRIGGER_ON_PLAY_GARDEN = 1
TRIGGER_ON_PLAY_ALLEY = 2
TRIGGER_WHEN_EQUIPPING = 3
TRIGGER_WHEN_ATTACKING = 4
TRIGGER_WHEN_ATTACKED = 5
TRIGGER_AFTER_ATTACKING = 6
TRIGGER_START_OF_TURN = 7
TRIGGER_END_OF_TURN = 8
TRIGGER_ENTITY_RETURNED = 9
TRIGGER_PORTAL = 10
TRIGGER_ON_DESTROYED = 11
TRIGGER_ENTITY_DESTROYED = 12
TRIGGER_ON_DAMAGED = 13
TRIGGER_ON_DRAW = 14
TRIGGER_ON_DISCARDED = 15
TRIGGER_GAME_START = 16
TRIGGER_ALLY_ENTERS = 17

VEC_LOG = ('EPISODES', 'LENGTH', 'DRAWS', 'TRUNCATED', 'WINS_SEAT0', 'WINS_SEAT1', 'AGENT_WINS', 'AGENT_LOSSES', 'AGENT_WINS_SEAT0', 'AGENT_WINS_SEAT1', 'AGENT_GAMES_SEAT0', 'AGENT_GAMES_SEAT1', 'ILLEGAL')
VEC_LOG_DOC = ('episodes that ended', 'decisions of the ended episodes, summed', 'episodes drawn', 'episodes cut by a cap', 'episodes won by seat 0', 'episodes won by seat 1', 'bot / policy mode: episodes the agent won', 'bot / policy mode: episodes the agent lost', 'bot / policy mode: wins of the agent in seat 0', 'bot / policy mode: wins of the agent in seat 1', 'bot / policy mode: episodes the agent played in seat 0', 'bot / policy mode: episodes the agent played in seat 1', 'episodes ended by an illegal action (AZK_VEC_ILLEGAL_LOSE)')
VEC_LOG_EPISODES = 0
VEC_LOG_LENGTH = 1
VEC_LOG_DRAWS = 2
VEC_LOG_TRUNCATED = 3
VEC_LOG_WINS_SEAT0 = 4
VEC_LOG_WINS_SEAT1 = 5
VEC_LOG_AGENT_WINS = 6
VEC_LOG_AGENT_LOSSES = 7
VEC_LOG_AGENT_WINS_SEAT0 = 8
VEC_LOG_AGENT_WINS_SEAT1 = 9
VEC_LOG_AGENT_GAMES_SEAT0 = 10
VEC_LOG_AGENT_GAMES_SEAT1 = 11
VEC_LOG_ILLEGAL = 12

ZONE = ('DECK', 'HAND', 'LEADER', 'GATE', 'GARDEN', 'ALLEY', 'WEAPON', 'IKZ_PILE', 'IKZ_AREA', 'DISCARD', 'OUT', 'ASIDE', 'LOOK', 'RESOLVING')
ZONE_DOC = ('deck (ordered, hidden)', 'hand (hidden from the opponent)', 'leader zone', 'gate zone', 'garden (5 slots)', 'alley (5 slots)', 'attached to a holder', 'IKZ pile (face down)', 'IKZ area (face up)', 'discard pile (public, ordered)', 'out of game (used token)', 'kept aside (unused token)', 'being looked at by its owner during an effect', 'a spell while it resolves')
ZONE_DECK = 0
ZONE_HAND = 1
ZONE_LEADER = 2
ZONE_GATE = 3
ZONE_GARDEN = 4
ZONE_ALLEY = 5
ZONE_WEAPON = 6
ZONE_IKZ_PILE = 7
ZONE_IKZ_AREA = 8
ZONE_DISCARD = 9
ZONE_OUT = 10
ZONE_ASIDE = 11
ZONE_LOOK = 12
ZONE_RESOLVING = 13
