"""The preset deflate dictionary of stored game records (store.py ``encode``/``decode``).

Text that records are made of: the record's and the rules state's JSON keys and usual
values, and every variant's card codes (the nearest, most used ones last). Deflate copies
from it instead of spelling each key and code out, which shrinks a 4-player record by
about a quarter (README.md "State in Redis").

Never edit these bytes: every record written with them names them by their Adler-32 in its
zlib header and can be read back only with exactly them. A better dictionary would be a new
constant, tried by ``decode`` according to that checksum.
"""

from __future__ import annotations

RECORD_DICTIONARY = (
    b"B+1/P3 B+1/P4 B1/P7 B1/P8 B2/P8 B2/P9 B3/P+5 B3/P9 B4/P+5 B4/PR B5/PR B5/PSE B6/PF B"
    b"6/PSE B7/P1 B7/PF B8/P1 B8/P2 B9/P2 B9/P3 BF/P6 BF/P7 BR/P4 BR/P5 BS/P5 BS/P6 G+1/V3"
    b" G+1/V4 G1/V7 G1/V8 G2/V8 G2/V9 G3/V+5 G3/V9 G4/V+5 G4/VR G5/VR G5/VSE G6/VF G6/VSE "
    b"G7/V1 G7/VF G8/V1 G8/V2 G9/V2 G9/V3 GF/V6 GF/V7 GR/V4 GR/V5 GS/V5 GS/V6 R+1/T3 R+1/T"
    b"4 R1/T7 R1/T8 R2/T8 R2/T9 R3/T+5 R3/T9 R4/T+5 R4/TR R5/TR R5/TSE R6/TF R6/TSE R7/T1 "
    b"R7/TF R8/T1 R8/T2 R9/T2 R9/T3 RF/T6 RF/T7 RR/T4 RR/T5 RS/T5 RS/T6 W+2/W W/WDC Y+1/O3"
    b" Y+1/O4 Y1/O7 Y1/O8 Y2/O8 Y2/O9 Y3/O+5 Y3/O9 Y4/O+5 Y4/OR Y5/OR Y5/OSE Y6/OF Y6/OSE "
    b"Y7/O1 Y7/OF Y8/O1 Y8/O2 Y9/O2 Y9/O3 YF/O6 YF/O7 YR/O4 YR/O5 YS/O5 YS/O6 B+2 B+4 B0 B"
    b"1 B2 B3 B4 B5 B6 B7 B8 B9 BDA BR BS BSE G+2 G+4 G0 G1 G2 G3 G4 G5 G6 G7 G8 G9 GDA GR"
    b" GS GSE R+2 R+4 R0 R1 R2 R3 R4 R5 R6 R7 R8 R9 RDA RR RS RSE W+10 W+6 WCR WR+4 Y+2 Y+"
    b"4 Y0 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 YDA YR YS YSE B+2 B0 B1 B2 B3 B4 B5 B6 B7 B8 B9 BR B"
    b"S G+2 G0 G1 G2 G3 G4 G5 G6 G7 G8 G9 GR GS R+2 R0 R1 R2 R3 R4 R5 R6 R7 R8 R9 RR RS W "
    b"W+3 W+4 Y+2 Y0 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 YR YS B+2 B0 B1 B2 B3 B4 B5 B6 B7 B8 B9 BR"
    b" BS G+2 G0 G1 G2 G3 G4 G5 G6 G7 G8 G9 GR GS R+2 R0 R1 R2 R3 R4 R5 R6 R7 R8 R9 RR RS "
    b'W W+4 WDF Y+2 Y0 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 YR YS {"id":"","version":1,"chat_id":-10'
    b'0,"topic_id":0,"host":1,"status":"lobby","variant":"no_mercy","turn_seconds":60,"rul'
    b'es":{"progressive_draw":true,"seven_o":true,"jump_in":true,"draw_until_playable":tru'
    b'e,"alternate_scoring":true,"target_score":500,"false_catch_penalty":true},"ended_by"'
    b':null,"seats":[{"name":"","user_id":1,"away":true,"missed":1,"left":true},{"name":""'
    b',"ai":"strong"},{"name":"","ai":"random"},{"name":"","ai":"first-legal"}],"state":{"'
    b'format":1,"variant":"classic","version":1,"options":{},"players":[{"name":"","hand":'
    b'"","score":0,"declared_uno":true,"knocked_out":true,"frozen_turns":1},{"name":"","ha'
    b'nd":"R+2 B9 Y4 Y9 R1","score":0},{"name":"","hand":"G4 Y4 Y1 Y+2 R6 R4","score":0}],'
    b'"set_aside":"","reveal":{"of":1,"to":1},"uno_window":1,"winner":null,"draw_pile":"B+'
    b"2 B0 B1 B2 B3 B4 B5 B6 B7 B8 B9 BR BS G+2 G0 G1 G2 G3 G4 G5 G6 G7 G8 G9 GR GS R+2 R0"
    b' R1 R2 R3 R4 R5 R6 R7 R8 R9 RR RS W W+4 Y+2 Y0 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 YR YS","di'
    b'scard":"W W+4 R0 R1 R2 R3 R4 R5 R6 R7 R8 R9 RR RS R+2 G0 G1 G2 G3 G4 G5 G6 G7 G8 G9 '
    b"GR GS G+2 B0 B1 B2 B3 B4 B5 B6 B7 B8 B9 BR BS B+2 Y0 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 YR Y"
    b'S Y+2","current":1,"dealer":2,"direction":-1,"side":0,"color":"R","pending":{"kind":'
    b'"turn","player":1,"drawn":"","must_play":true,"source":1,"card_kind":"","amount":2,"'
    b'challengeable":true,"bluffed":true,"then":""},"round":1,"seed":1,"rng_counter":1},"u'
    b'no_opened":1,"recent":[["",1],["",1],["",1],["",1],["",1],["",1],["",1],["'
)
