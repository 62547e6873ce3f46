// What each violation rule of the game engine means, in the page's words: a page in another
// language than English shows this sentence under the rule's name (the engine's own message,
// with its particulars, is English: controller/game). Rule names as the API has them.
"use strict";

import { t } from "./i18n.js";

export function ruleWords(rule) {
  switch (rule) {
    case "abortive_draw": return t("Abortive draw: the hand ends without a winner, or this call is not allowed now.");
    case "bad_penalty": return t("This penalty cannot be given or taken back this way: chombo is a riichi penalty, and only an undo takes a chombo back.");
    case "bad_session": return t("The session cannot start with this rule set or these table options.");
    case "bonus_discard": return t("A bonus tile cannot be discarded: lay it on the meld strip and draw a replacement.");
    case "chow_not_from_previous": return t("A chow may be claimed only by the player who plays after the discarder.");
    case "claim_outranked": return t("Another player's claim on this discard ranks higher.");
    case "claim_pending": return t("A claim is being decided: wait for it.");
    case "claim_too_late": return t("The claim came too late: the discard is gone or the next player has drawn.");
    case "dead_hand": return t("This hand is dead: no claims and no Mahjong for the rest of the hand.");
    case "discard_out_of_turn": return t("A tile was discarded out of turn.");
    case "discard_taken_back": return t("A player may not take back the own discard.");
    case "draw_out_of_turn": return t("A tile was drawn out of turn.");
    case "engine_error": return t("The table could not apply this step: please report it with the log.");
    case "exposed_set_changed": return t("An exposed set cannot be changed: put the tile back.");
    case "fifth_copy": return t("All copies of that kind are already out: this tile was misread; correct it.");
    case "fifth_kong": return t("A fifth kong is not allowed.");
    case "furiten": return t("Furiten: this player cannot win on a discard now.");
    case "invalid_claim": return t("The claimed discard completes nothing in this hand: no claim.");
    case "kong_claim_on_exposed_pung": return t("A discard may not be claimed to make an exposed pung a kong.");
    case "kuikae": return t("Kuikae: this tile may not be discarded right after the call.");
    case "last_tile_claim": return t("The wall is used up: the last discard may be claimed only to win.");
    case "last_tile_kong": return t("No kong on the last tile of the wall.");
    case "mahjong_incomplete_hand": return t("Mahjong was called with a hand that is not complete.");
    case "mahjong_not_declared": return t("A tile was taken for Mahjong: declare Mahjong, or put the tile back.");
    case "mahjong_without_doubling": return t("Mahjong needs at least one combination doubling in this rule set.");
    case "mahjong_without_eight_fans": return t("Mahjong needs at least 8 fans, not counting flowers.");
    case "mahjong_without_ready": return t("In this rule set Mahjong needs a ready call first.");
    case "mahjong_without_yaku": return t("Mahjong was called with a hand that has no yaku.");
    case "malformed_event": return t("The table cannot read this step: nothing was changed.");
    case "meld_out_of_turn": return t("Tiles may be laid out only on the own turn or to claim a discard.");
    case "name_taken": return t("That name already sits at another seat: swap or clear that seat first.");
    case "no_false_mahjong_penalty": return t("This rule set names no false-Mahjong penalty: give the amount each other player receives.");
    case "no_hand": return t("No hand is in play.");
    case "no_session": return t("No session is running.");
    case "no_such_hand": return t("No finished hand of this session has that number.");
    case "no_such_penalty": return t("There is no penalty with that number to take back.");
    case "not_a_set": return t("These tiles make no chow, pung or kong: put them back.");
    case "not_in_set": return t("A tile was read that is not in this game's set: take it off the table.");
    case "nothing_to_claim": return t("There is no discard to claim.");
    case "pair_claim_without_mahjong": return t("A discard may be claimed for a pair only to go Mahjong: declare Mahjong, or put the tiles back.");
    case "ready_not_waiting": return t("Ready was called with a hand that is not waiting.");
    case "riichi_hand_changed": return t("In riichi the hand may not change: discard the tile just drawn.");
    case "riichi_not_ready": return t("Riichi needs a hand that is one tile from complete.");
    case "riichi_open_hand": return t("Riichi needs a closed hand.");
    case "riichi_too_late": return t("Riichi needs at least four tiles left in the live wall.");
    case "session_in_progress": return t("A session is already running: one log, one session.");
    case "session_over": return t("The session is over.");
    case "set_incomplete": return t("An unfinished set lies on the meld strip: complete it or put it back before discarding.");
    case "tile_not_there": return t("That tile is not where the move says it was.");
    case "tile_out_of_place": return t("A tile lies where it does not belong: put it back.");
    case "undo_too_far": return t("There is not that much to take back.");
    case "wall_empty": return t("The wall is empty.");
    case "wrong_tile_count": return t("A hand has the wrong number of tiles.");
    default: return null;
  }
}
