"""The preset deflate dictionary of the event log's entries (event_log.py ``encode_events``).

Text that events are made of, most useful last (deflate reaches nearer text with shorter
codes): every variant's card codes, one example of each event's shape (type and keys), then
the events and whole writes that came up most often in random play of every variant, ranked
by the bytes they would spare. Deflated with it at level 9, a write's events take about 16
bytes instead of some 63 without it (96 as JSON); services/engine/README.md "Events".

Never edit these bytes: raw deflate streams carry no checksum of their dictionary, so every
entry written with them can be read back only with exactly them. A better dictionary would
be a new constant behind a new payload marker in ``event_log.decode_events``.
"""

from __future__ import annotations

EVENT_DICTIONARY = (
    b'["B+1/P3","B+1/P4","B+2","B+4","B0","B1","B1/P7","B1/P8","B2","B2/P8","B2/P9","B3","B3'
    b'/P+5","B3/P9","B4","B4/P+5","B4/PR","B5","B5/PR","B5/PSE","B6","B6/PF","B6/PSE","B7","'
    b'B7/P1","B7/PF","B8","B8/P1","B8/P2","B9","B9/P2","B9/P3","BDA","BF/P6","BF/P7","BR","B'
    b'R/P4","BR/P5","BS","BS/P5","BS/P6","BSE","G+1/V3","G+1/V4","G+2","G+4","G0","G1","G1/V'
    b'7","G1/V8","G2","G2/V8","G2/V9","G3","G3/V+5","G3/V9","G4","G4/V+5","G4/VR","G5","G5/V'
    b'R","G5/VSE","G6","G6/VF","G6/VSE","G7","G7/V1","G7/VF","G8","G8/V1","G8/V2","G9","G9/V'
    b'2","G9/V3","GDA","GF/V6","GF/V7","GR","GR/V4","GR/V5","GS","GS/V5","GS/V6","GSE","R+1/'
    b'T3","R+1/T4","R+2","R+4","R0","R1","R1/T7","R1/T8","R2","R2/T8","R2/T9","R3","R3/T+5",'
    b'"R3/T9","R4","R4/T+5","R4/TR","R5","R5/TR","R5/TSE","R6","R6/TF","R6/TSE","R7","R7/T1"'
    b',"R7/TF","R8","R8/T1","R8/T2","R9","R9/T2","R9/T3","RDA","RF/T6","RF/T7","RR","RR/T4",'
    b'"RR/T5","RS","RS/T5","RS/T6","RSE","W","W+10","W+2/W","W+3","W+4","W+6","W/WDC","WCR",'
    b'"WDF","WR+4","Y+1/O3","Y+1/O4","Y+2","Y+4","Y0","Y1","Y1/O7","Y1/O8","Y2","Y2/O8","Y2/'
    b'O9","Y3","Y3/O+5","Y3/O9","Y4","Y4/O+5","Y4/OR","Y5","Y5/OR","Y5/OSE","Y6","Y6/OF","Y6'
    b'/OSE","Y7","Y7/O1","Y7/OF","Y8","Y8/O1","Y8/O2","Y9","Y9/O2","Y9/O3","YDA","YF/O6","YF'
    b'/O7","YR","YR/O4","YR/O5","YS","YS/O5","YS/O6","YSE"],{"type":"turn","player":1},{"typ'
    b'e":"drew","player":1,"count":1},{"type":"skipped","player":1},{"type":"kept","player":'
    b'0},{"type":"reversed","direction":-1},{"type":"stand_in","seat":0},{"type":"played","p'
    b'layer":0,"card":"W"},{"type":"color_chosen","player":1,"color":"G"},{"type":"drew_card'
    b's","player":0,"cards":["W"],"to":0},{"type":"uno_called","player":1},{"type":"unfrozen'
    b'","player":1},{"type":"challenged","player":1,"target":0,"guilty":true},{"type":"uno_w'
    b'indow_opened","player":0},{"type":"flipped","side":"dark","top":"VF"},{"type":"frozen"'
    b',"player":1,"by":0},{"type":"uno_window_closed","player":0},{"type":"hands_rotated","d'
    b'irection":1},{"type":"round_started","round":1,"dealer":0},{"type":"reshuffled","size"'
    b':82},{"type":"game_started","players":4},{"type":"stacked","player":0,"total":4},{"typ'
    b'e":"knocked_out","player":1,"by":0},{"type":"caught","player":1,"target":0},{"type":"s'
    b'wapped","player":1,"target":0},{"type":"first_card","card":"Y2"},{"type":"player_joine'
    b'd","seat":1,"user_id":200000001,"name":"Player 1"},{"type":"challenge_reveal","target"'
    b':0,"cards":["BS","BS","R5","Y8","RS","R6"],"to":2},{"type":"roulette","player":1,"colo'
    b'r":"Y","cards":["Y1"]},{"type":"discarded_all","player":1,"color":"R","cards":["RS"]},'
    b'{"type":"game_created","host":100000000,"variant":"classic"},{"type":"round_ended","ro'
    b'und":1,"winner":1,"points":[82,0,71],"scores":[0,153,0],"hands":[["Y4","B1","BS","G6",'
    b'"R1","W+4"],[],["R8","G8","G7","Y8","B4","G9","B0","GS","Y7"]]},{"type":"game_over","w'
    b'inner":5,"scores":[0,0,0,0,0,549]},[{"type":"drew","player":1,"count":1},{"type":"drew'
    b'_cards","player":1,"cards":["W+4"],"to":1}],[{"type":"drew","player":0,"count":1},{"ty'
    b'pe":"drew_cards","player":0,"cards":["W+4"],"to":0}],{"type":"stand_in","seat":2},{"ty'
    b'pe":"drew","player":0,"count":2},[{"type":"kept","player":2},{"type":"turn","player":1'
    b'}],[{"type":"kept","player":1},{"type":"turn","player":2}],{"type":"kept","player":2},'
    b'{"type":"drew","player":1,"count":2},[{"type":"drew","player":1,"count":1},{"type":"dr'
    b'ew_cards","player":1,"cards":["W"],"to":1}],{"type":"skipped","player":3},[{"type":"dr'
    b'ew","player":0,"count":1},{"type":"drew_cards","player":0,"cards":["W"],"to":0}],{"typ'
    b'e":"stand_in","seat":1},{"type":"stand_in","seat":0},{"type":"kept","player":1},{"type'
    b'":"kept","player":0},{"type":"reversed","direction":1},{"type":"reversed","direction":'
    b'-1},[{"type":"kept","player":1},{"type":"turn","player":0}],[{"type":"kept","player":0'
    b'},{"type":"turn","player":1}],{"type":"skipped","player":2},{"type":"skipped","player"'
    b':0},{"type":"skipped","player":1},{"type":"drew","player":3,"count":1},{"type":"turn",'
    b'"player":3},{"type":"drew","player":2,"count":1},{"type":"drew","player":0,"count":1},'
    b'{"type":"drew","player":1,"count":1},{"type":"turn","player":2},{"type":"turn","player'
    b'":0},{"type":"turn","player":1}'
)
