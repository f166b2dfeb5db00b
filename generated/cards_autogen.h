/* generated from cards.json (sha256 6ce6a87a39c5b6c9) by azuki.convert — do not edit; regenerate with `python -m azuki.convert --write-default` */
#ifndef AZK_CARDS_AUTOGEN_H
#define AZK_CARDS_AUTOGEN_H
#include "cardset.h"

/* The embedded default card set: 36 definitions, 2 decks, 30 abilities, 522 bytes of bytecode. */
extern const azk_cardset azk_default_cardset_data;
#define AZK_DEFAULT_CARDSET_DIGEST "6ce6a87a39c5b6c985732a8e510f6ab6b7c947d9f9654a4c58323419c8220809"

#endif
