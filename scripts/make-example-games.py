#!/usr/bin/env python3
"""Writes the example games in tests/fixtures/ (run from the repository root). The JSONL files are
the fixtures; this script only documents how they were made."""
import json
setup=json.load(open('tests/fixtures/setup-small.json'))
hdr=json.dumps({"format":"sightline-game","version":1,"setup":setup})
def write(name, evs, torn=None):
    with open(f'tests/fixtures/{name}','w') as f:
        f.write(hdr+"\n")
        for e in evs: f.write(json.dumps(e)+"\n")
        if torn: f.write(torn)
start=[{"type":"order_count"},{"type":"end_impetuous_phase"}]
full=start+[
 {"type":"activate","source":"regular","troopers":["a1"]},
 {"type":"declare","skill":"move","moves":[{"trooper":"a1","route":[[16,12],[16,18]]},{"trooper":"a2","route":[[18,12]]},{"trooper":"a3","route":[[20,12]]}]},
 {"type":"declare_aro","trooper":"b1","skill":"bs_attack","target":"a1"},
 {"type":"declare_aro","trooper":"b2","skill":"bs_attack","target":"a1"},
 {"type":"declare_aro","trooper":"b_rep","skill":"dodge","target":"a1"},
 {"type":"declare_aro","trooper":"b_hack","skill":"hacking","target":"a1"},
 {"type":"close_aro_window"},
 {"type":"declare","skill":"move","moves":[{"trooper":"a1","route":[[14,24]]}]},
 {"type":"declare_aro","trooper":"b3","skill":"bs_attack","target":"a1"},
 {"type":"close_aro_window"},
 {"type":"resolve","outcomes":[{"type":"enter","trooper":"b2","state":"unconscious"},{"type":"place","trooper":"b_rep","x":11,"y":14}]},
]
write("full-order-aros.jsonl", full)
ft=start+[
 {"type":"activate","source":"regular","troopers":["a1"]},
 {"type":"declare","skill":"move","moves":[{"trooper":"a1","route":[[22,12]]},{"trooper":"a2","route":[[24,12]]},{"trooper":"a3","route":[[34,8]]}]},
 {"type":"close_aro_window"},
 {"type":"resolve"},
 {"type":"activate","source":"regular","troopers":["a1"]},
 {"type":"declare","skill":"move","moves":[{"trooper":"a1","route":[[22,14]]},{"trooper":"a2","route":[[24,14]]}]},
 {"type":"close_aro_window"},
 {"type":"resolve","outcomes":[{"type":"enter","trooper":"a2","state":"unconscious"}]},
 {"type":"end_turn"},
]
write("fireteam-loses-member.jsonl", ft)
lol=start+[
 {"type":"activate","source":"tactical_awareness","troopers":["a_nco"]},
 {"type":"declare","skill":"bs_attack","targets":["b_lt"]},
 {"type":"declare_aro","trooper":"b_lt","skill":"bs_attack","target":"a_nco"},
 {"type":"close_aro_window"},
 {"type":"resolve","outcomes":[{"type":"enter","trooper":"b_lt","state":"dead"}]},
 {"type":"end_turn"},
 {"type":"order_count"},
 {"type":"activate","source":"irregular","troopers":["b3"]},
 {"type":"declare","skill":"move","moves":[{"trooper":"b3","route":[[30,36]]}]},
 {"type":"close_aro_window"},
 {"type":"resolve"},
 {"type":"end_turn","new_lieutenant":"b3"},
 {"type":"order_count"},
 {"type":"end_turn"},
 {"type":"order_count"},
]
write("loss-of-lieutenant.jsonl", lol)
rej=start+[
 {"type":"activate","source":"regular","troopers":["a1"]},
 {"type":"declare","skill":"bs_attack","targets":["b3"]},
 {"type":"declare","skill":"move","moves":[{"trooper":"a1","route":[[16,12]]},{"trooper":"a2","route":[[18,12]]},{"trooper":"a3","route":[[20,12]]}]},
 {"type":"close_aro_window"},
 {"type":"declare","skill":"bs_attack","targets":["b1"]},
 {"type":"close_aro_window"},
 {"type":"declare","skill":"dodge"},
 {"type":"resolve"},
]
write("rejected-declaration.jsonl", rej)
write("torn-last-line.jsonl", start+[{"type":"activate","source":"regular","troopers":["a1"]}], torn='{"type":"declare","skill":"mo')
