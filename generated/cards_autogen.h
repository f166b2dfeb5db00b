/* generated from cards.json (sha256 880b04c254c6269e) by azuki.convert — do not edit; regenerate with `python -m azuki.convert` */
#ifndef AZK_CARDS_AUTOGEN_H
#define AZK_CARDS_AUTOGEN_H
#include "cardset.h"

/* The embedded default card set: 36 definitions, 2 decks, 30 abilities, 554 bytes of bytecode. */
extern const azk_cardset azk_default_cardset_data;
#define AZK_DEFAULT_CARDSET_DIGEST "880b04c254c6269ea72a6c618b321e1766e07dfde6402c98b2048aa335035de5"

#endif
