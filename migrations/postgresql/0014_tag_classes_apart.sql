-- The tag rule's long classes in functions of their own, reached only by a tag or project that is not
-- all ASCII: what every new connection paid for them, measured, is gone.
--
-- Migration 0013 wrote the class of tag scalars (16,000 characters) and the two classes of scalars
-- that join a project's dot into tally_tags_ok and tally_todo_links_problem as hundreds of string
-- pieces joined with `||`. PL/pgSQL plans a statement when a session first runs it, and the planner
-- folds those joins into one constant then, so the first todo event of every connection (an `add`
-- is one connection) planned the whole class, and PL/pgSQL plans a statement again for each of its
-- first five calls: tally_tags_ok took 4.5 ms of an `add`'s 10.4 ms of trigger time (server timing
-- per function, `track_functions = all`), and 2.7 ms on each of a session's first calls even for
-- an ASCII tag, whose answer never reads the class.
--
-- Now the classes are one literal each (SQL joins adjacent string literals on separate lines as it
-- reads them, with no work left for the planner), in small functions that the ASCII checks answer
-- before: tally_tags_ok and tally_todo_links_problem call them only for a tag or project that is not
-- all `a-z`, `0-9`, `_`, `-` (and `.`). The rule is unchanged, scalar by scalar: the classes are
-- 0013's ranges, held to the Swift runtime by TagRuleMigrationTests as before, and the server is
-- asked the same cases in TagRuleAgreementAttackTests. Like every pure check since 0012, the new
-- functions have no search_path of their own and EXECUTE on them is PUBLIC's to no one.

-- A tag's scalars (after the ASCII check): each in the set S of migration 0013.
CREATE FUNCTION tally_tag_scalars_ok(p_tag TEXT) RETURNS BOOLEAN LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN p_tag ~ ('^['
    '\u002d\u0030-\u0039\u005f\u0061-\u007a\u00aa\u00b2-\u00b3\u00b5\u00b9-\u00ba\u00bc-\u00be'
    '\u00df-\u00f6\u00f8-\u00ff\u0101\u0103\u0105\u0107\u0109\u010b\u010d\u010f\u0111\u0113\u0115'
    '\u0117\u0119\u011b\u011d\u011f\u0121\u0123\u0125\u0127\u0129\u012b\u012d\u012f\u0131\u0133\u0135'
    '\u0137-\u0138\u013a\u013c\u013e\u0140\u0142\u0144\u0146\u0148-\u0149\u014b\u014d\u014f\u0151'
    '\u0153\u0155\u0157\u0159\u015b\u015d\u015f\u0161\u0163\u0165\u0167\u0169\u016b\u016d\u016f\u0171'
    '\u0173\u0175\u0177\u017a\u017c\u017e-\u0180\u0183\u0185\u0188\u018c-\u018d\u0192\u0195'
    '\u0199-\u019b\u019e\u01a1\u01a3\u01a5\u01a8\u01aa-\u01ab\u01ad\u01b0\u01b4\u01b6\u01b9-\u01bb'
    '\u01bd-\u01c3\u01c6\u01c9\u01cc\u01ce\u01d0\u01d2\u01d4\u01d6\u01d8\u01da\u01dc-\u01dd\u01df'
    '\u01e1\u01e3\u01e5\u01e7\u01e9\u01eb\u01ed\u01ef-\u01f0\u01f3\u01f5\u01f9\u01fb\u01fd\u01ff'
    '\u0201\u0203\u0205\u0207\u0209\u020b\u020d\u020f\u0211\u0213\u0215\u0217\u0219\u021b\u021d\u021f'
    '\u0221\u0223\u0225\u0227\u0229\u022b\u022d\u022f\u0231\u0233-\u0239\u023c\u023f-\u0240\u0242'
    '\u0247\u0249\u024b\u024d\u024f-\u02c1\u02c6-\u02d1\u02e0-\u02e4\u02ec\u02ee\u0300-\u036f\u0371'
    '\u0373-\u0374\u0377\u037a-\u037d\u0390\u03ac-\u03ce\u03d0-\u03d7\u03d9\u03db\u03dd\u03df\u03e1'
    '\u03e3\u03e5\u03e7\u03e9\u03eb\u03ed\u03ef-\u03f3\u03f5\u03f8\u03fb-\u03fc\u0430-\u045f\u0461'
    '\u0463\u0465\u0467\u0469\u046b\u046d\u046f\u0471\u0473\u0475\u0477\u0479\u047b\u047d\u047f\u0481'
    '\u0483-\u0487\u048b\u048d\u048f\u0491\u0493\u0495\u0497\u0499\u049b\u049d\u049f\u04a1\u04a3'
    '\u04a5\u04a7\u04a9\u04ab\u04ad\u04af\u04b1\u04b3\u04b5\u04b7\u04b9\u04bb\u04bd\u04bf\u04c2\u04c4'
    '\u04c6\u04c8\u04ca\u04cc\u04ce-\u04cf\u04d1\u04d3\u04d5\u04d7\u04d9\u04db\u04dd\u04df\u04e1'
    '\u04e3\u04e5\u04e7\u04e9\u04eb\u04ed\u04ef\u04f1\u04f3\u04f5\u04f7\u04f9\u04fb\u04fd\u04ff\u0501'
    '\u0503\u0505\u0507\u0509\u050b\u050d\u050f\u0511\u0513\u0515\u0517\u0519\u051b\u051d\u051f\u0521'
    '\u0523\u0525\u0527\u0529\u052b\u052d\u052f\u0559\u0560-\u0588\u0591-\u05bd\u05bf\u05c1-\u05c2'
    '\u05c4-\u05c5\u05c7\u05d0-\u05ea\u05ef-\u05f2\u0610-\u061a\u0620-\u0669\u066e-\u06d3'
    '\u06d5-\u06dc\u06df-\u06e8\u06ea-\u06fc\u06ff\u0710-\u074a\u074d-\u07b1\u07c0-\u07f5\u07fa\u07fd'
    '\u0800-\u082d\u0840-\u085b\u0860-\u086a\u0870-\u0887\u0889-\u088f\u0897-\u08e1\u08e3-\u0963'
    '\u0966-\u096f\u0971-\u0983\u0985-\u098c\u098f-\u0990\u0993-\u09a8\u09aa-\u09b0\u09b2'
    '\u09b6-\u09b9\u09bc-\u09c4\u09c7-\u09c8\u09cb-\u09ce\u09d7\u09dc-\u09dd\u09df-\u09e3'
    '\u09e6-\u09f1\u09f4-\u09f9\u09fc\u09fe\u0a01-\u0a03\u0a05-\u0a0a\u0a0f-\u0a10\u0a13-\u0a28'
    '\u0a2a-\u0a30\u0a32-\u0a33\u0a35-\u0a36\u0a38-\u0a39\u0a3c\u0a3e-\u0a42\u0a47-\u0a48'
    '\u0a4b-\u0a4d\u0a51\u0a59-\u0a5c\u0a5e\u0a66-\u0a75\u0a81-\u0a83\u0a85-\u0a8d\u0a8f-\u0a91'
    '\u0a93-\u0aa8\u0aaa-\u0ab0\u0ab2-\u0ab3\u0ab5-\u0ab9\u0abc-\u0ac5\u0ac7-\u0ac9\u0acb-\u0acd'
    '\u0ad0\u0ae0-\u0ae3\u0ae6-\u0aef\u0af9-\u0aff\u0b01-\u0b03\u0b05-\u0b0c\u0b0f-\u0b10'
    '\u0b13-\u0b28\u0b2a-\u0b30\u0b32-\u0b33\u0b35-\u0b39\u0b3c-\u0b44\u0b47-\u0b48\u0b4b-\u0b4d'
    '\u0b55-\u0b57\u0b5c-\u0b5d\u0b5f-\u0b63\u0b66-\u0b6f\u0b71-\u0b77\u0b82-\u0b83\u0b85-\u0b8a'
    '\u0b8e-\u0b90\u0b92-\u0b95\u0b99-\u0b9a\u0b9c\u0b9e-\u0b9f\u0ba3-\u0ba4\u0ba8-\u0baa'
    '\u0bae-\u0bb9\u0bbe-\u0bc2\u0bc6-\u0bc8\u0bca-\u0bcd\u0bd0\u0bd7\u0be6-\u0bf2\u0c00-\u0c0c'
    '\u0c0e-\u0c10\u0c12-\u0c28\u0c2a-\u0c39\u0c3c-\u0c44\u0c46-\u0c48\u0c4a-\u0c4d\u0c55-\u0c56'
    '\u0c58-\u0c5a\u0c5c-\u0c5d\u0c60-\u0c63\u0c66-\u0c6f\u0c78-\u0c7e\u0c80-\u0c83\u0c85-\u0c8c'
    '\u0c8e-\u0c90\u0c92-\u0ca8\u0caa-\u0cb3\u0cb5-\u0cb9\u0cbc-\u0cc4\u0cc6-\u0cc8\u0cca-\u0ccd'
    '\u0cd5-\u0cd6\u0cdc-\u0cde\u0ce0-\u0ce3\u0ce6-\u0cef\u0cf1-\u0cf3\u0d00-\u0d0c\u0d0e-\u0d10'
    '\u0d12-\u0d44\u0d46-\u0d48\u0d4a-\u0d4e\u0d54-\u0d63\u0d66-\u0d78\u0d7a-\u0d7f\u0d81-\u0d83'
    '\u0d85-\u0d96\u0d9a-\u0db1\u0db3-\u0dbb\u0dbd\u0dc0-\u0dc6\u0dca\u0dcf-\u0dd4\u0dd6\u0dd8-\u0ddf'
    '\u0de6-\u0def\u0df2-\u0df3\u0e01-\u0e3a\u0e40-\u0e4e\u0e50-\u0e59\u0e81-\u0e82\u0e84'
    '\u0e86-\u0e8a\u0e8c-\u0ea3\u0ea5\u0ea7-\u0ebd\u0ec0-\u0ec4\u0ec6\u0ec8-\u0ece\u0ed0-\u0ed9'
    '\u0edc-\u0edf\u0f00\u0f18-\u0f19\u0f20-\u0f33\u0f35\u0f37\u0f39\u0f3e-\u0f47\u0f49-\u0f6c'
    '\u0f71-\u0f84\u0f86-\u0f97\u0f99-\u0fbc\u0fc6\u1000-\u1049\u1050-\u109d\u10d0-\u10fa'
    '\u10fc-\u1248\u124a-\u124d\u1250-\u1256\u1258\u125a-\u125d\u1260-\u1288\u128a-\u128d'
    '\u1290-\u12b0\u12b2-\u12b5\u12b8-\u12be\u12c0\u12c2-\u12c5\u12c8-\u12d6\u12d8-\u1310'
    '\u1312-\u1315\u1318-\u135a\u135d-\u135f\u1369-\u137c\u1380-\u138f\u13f8-\u13fd\u1401-\u166c'
    '\u166f-\u167f\u1681-\u169a\u16a0-\u16ea\u16ee-\u16f8\u1700-\u1715\u171f-\u1734\u1740-\u1753'
    '\u1760-\u176c\u176e-\u1770\u1772-\u1773\u1780-\u17d3\u17d7\u17dc-\u17dd\u17e0-\u17e9'
    '\u17f0-\u17f9\u180b-\u180d\u180f-\u1819\u1820-\u1878\u1880-\u18aa\u18b0-\u18f5\u1900-\u191e'
    '\u1920-\u192b\u1930-\u193b\u1946-\u196d\u1970-\u1974\u1980-\u19ab\u19b0-\u19c9\u19d0-\u19da'
    '\u1a00-\u1a1b\u1a20-\u1a5e\u1a60-\u1a7c\u1a7f-\u1a89\u1a90-\u1a99\u1aa7\u1ab0-\u1abd'
    '\u1abf-\u1add\u1ae0-\u1aeb\u1b00-\u1b4c\u1b50-\u1b59\u1b6b-\u1b73\u1b80-\u1bf3\u1c00-\u1c37'
    '\u1c40-\u1c49\u1c4d-\u1c7d\u1c80-\u1c88\u1c8a\u1cd0-\u1cd2\u1cd4-\u1cfa\u1d00-\u1dff\u1e01\u1e03'
    '\u1e05\u1e07\u1e09\u1e0b\u1e0d\u1e0f\u1e11\u1e13\u1e15\u1e17\u1e19\u1e1b\u1e1d\u1e1f\u1e21\u1e23'
    '\u1e25\u1e27\u1e29\u1e2b\u1e2d\u1e2f\u1e31\u1e33\u1e35\u1e37\u1e39\u1e3b\u1e3d\u1e3f\u1e41\u1e43'
    '\u1e45\u1e47\u1e49\u1e4b\u1e4d\u1e4f\u1e51\u1e53\u1e55\u1e57\u1e59\u1e5b\u1e5d\u1e5f\u1e61\u1e63'
    '\u1e65\u1e67\u1e69\u1e6b\u1e6d\u1e6f\u1e71\u1e73\u1e75\u1e77\u1e79\u1e7b\u1e7d\u1e7f\u1e81\u1e83'
    '\u1e85\u1e87\u1e89\u1e8b\u1e8d\u1e8f\u1e91\u1e93\u1e95-\u1e9d\u1e9f\u1ea1\u1ea3\u1ea5\u1ea7'
    '\u1ea9\u1eab\u1ead\u1eaf\u1eb1\u1eb3\u1eb5\u1eb7\u1eb9\u1ebb\u1ebd\u1ebf\u1ec1\u1ec3\u1ec5\u1ec7'
    '\u1ec9\u1ecb\u1ecd\u1ecf\u1ed1\u1ed3\u1ed5\u1ed7\u1ed9\u1edb\u1edd\u1edf\u1ee1\u1ee3\u1ee5\u1ee7'
    '\u1ee9\u1eeb\u1eed\u1eef\u1ef1\u1ef3\u1ef5\u1ef7\u1ef9\u1efb\u1efd\u1eff-\u1f07\u1f10-\u1f15'
    '\u1f20-\u1f27\u1f30-\u1f37\u1f40-\u1f45\u1f50-\u1f57\u1f60-\u1f67\u1f70-\u1f7d\u1f80-\u1f87'
    '\u1f90-\u1f97\u1fa0-\u1fa7\u1fb0-\u1fb4\u1fb6-\u1fb7\u1fbe\u1fc2-\u1fc4\u1fc6-\u1fc7'
    '\u1fd0-\u1fd3\u1fd6-\u1fd7\u1fe0-\u1fe7\u1ff2-\u1ff4\u1ff6-\u1ff7\u2070-\u2071\u2074-\u2079'
    '\u207f-\u2089\u2090-\u209c\u20d0-\u20dc\u20e1\u20e5-\u20f0\u2102\u2107\u210a-\u2113\u2115'
    '\u2119-\u211d\u2124\u2128\u212c-\u212d\u212f-\u2131\u2133-\u2139\u213c-\u213f\u2145-\u2149\u214e'
    '\u2150-\u215f\u2170-\u2182\u2184-\u2189\u2460-\u249b\u24ea-\u24ff\u2776-\u2793\u2c30-\u2c5f'
    '\u2c61\u2c65-\u2c66\u2c68\u2c6a\u2c6c\u2c71\u2c73-\u2c74\u2c76-\u2c7d\u2c81\u2c83\u2c85\u2c87'
    '\u2c89\u2c8b\u2c8d\u2c8f\u2c91\u2c93\u2c95\u2c97\u2c99\u2c9b\u2c9d\u2c9f\u2ca1\u2ca3\u2ca5\u2ca7'
    '\u2ca9\u2cab\u2cad\u2caf\u2cb1\u2cb3\u2cb5\u2cb7\u2cb9\u2cbb\u2cbd\u2cbf\u2cc1\u2cc3\u2cc5\u2cc7'
    '\u2cc9\u2ccb\u2ccd\u2ccf\u2cd1\u2cd3\u2cd5\u2cd7\u2cd9\u2cdb\u2cdd\u2cdf\u2ce1\u2ce3-\u2ce4'
    '\u2cec\u2cee-\u2cf1\u2cf3\u2cfd\u2d00-\u2d25\u2d27\u2d2d\u2d30-\u2d67\u2d6f\u2d7f-\u2d96'
    '\u2da0-\u2da6\u2da8-\u2dae\u2db0-\u2db6\u2db8-\u2dbe\u2dc0-\u2dc6\u2dc8-\u2dce\u2dd0-\u2dd6'
    '\u2dd8-\u2dde\u2de0-\u2dff\u2e2f\u3005-\u3007\u3021-\u302f\u3031-\u3035\u3038-\u303c'
    '\u3041-\u3096\u3099-\u309a\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3105-\u312f\u3131-\u318e'
    '\u3192-\u3195\u31a0-\u31bf\u31f0-\u31ff\u3220-\u3229\u3248-\u324f\u3251-\u325f\u3280-\u3289'
    '\u32b1-\u32bf\u3400-\u4dbf\u4e00-\ua48c\ua4d0-\ua4fd\ua500-\ua60c\ua610-\ua62b\ua641\ua643\ua645'
    '\ua647\ua649\ua64b\ua64d\ua64f\ua651\ua653\ua655\ua657\ua659\ua65b\ua65d\ua65f\ua661\ua663\ua665'
    '\ua667\ua669\ua66b\ua66d-\ua66f\ua674-\ua67d\ua67f\ua681\ua683\ua685\ua687\ua689\ua68b\ua68d'
    '\ua68f\ua691\ua693\ua695\ua697\ua699\ua69b-\ua6f1\ua717-\ua71f\ua723\ua725\ua727\ua729\ua72b'
    '\ua72d\ua72f-\ua731\ua733\ua735\ua737\ua739\ua73b\ua73d\ua73f\ua741\ua743\ua745\ua747\ua749'
    '\ua74b\ua74d\ua74f\ua751\ua753\ua755\ua757\ua759\ua75b\ua75d\ua75f\ua761\ua763\ua765\ua767\ua769'
    '\ua76b\ua76d\ua76f-\ua778\ua77a\ua77c\ua77f\ua781\ua783\ua785\ua787-\ua788\ua78c\ua78e-\ua78f'
    '\ua791\ua793-\ua795\ua797\ua799\ua79b\ua79d\ua79f\ua7a1\ua7a3\ua7a5\ua7a7\ua7a9\ua7af\ua7b5'
    '\ua7b7\ua7b9\ua7bb\ua7bd\ua7bf\ua7c1\ua7c3\ua7c8\ua7ca\ua7cd\ua7cf\ua7d1\ua7d3\ua7d5\ua7d7\ua7d9'
    '\ua7db\ua7f1-\ua7f4\ua7f6-\ua827\ua82c\ua830-\ua835\ua840-\ua873\ua880-\ua8c5\ua8d0-\ua8d9'
    '\ua8e0-\ua8f7\ua8fb\ua8fd-\ua92d\ua930-\ua953\ua960-\ua97c\ua980-\ua9c0\ua9cf-\ua9d9'
    '\ua9e0-\ua9fe\uaa00-\uaa36\uaa40-\uaa4d\uaa50-\uaa59\uaa60-\uaa76\uaa7a-\uaac2\uaadb-\uaadd'
    '\uaae0-\uaaef\uaaf2-\uaaf6\uab01-\uab06\uab09-\uab0e\uab11-\uab16\uab20-\uab26\uab28-\uab2e'
    '\uab30-\uab5a\uab5c-\uab69\uab70-\uabea\uabec-\uabed\uabf0-\uabf9\uac00-\ud7a3\ud7b0-\ud7c6'
    '\ud7cb-\ud7fb\uf900-\ufa6d\ufa70-\ufad9\ufb00-\ufb06\ufb13-\ufb17\ufb1d-\ufb28\ufb2a-\ufb36'
    '\ufb38-\ufb3c\ufb3e\ufb40-\ufb41\ufb43-\ufb44\ufb46-\ufbb1\ufbd3-\ufd3d\ufd50-\ufd8f'
    '\ufd92-\ufdc7\ufdf0-\ufdfb\ufe00-\ufe0f\ufe20-\ufe2f\ufe70-\ufe74\ufe76-\ufefc\uff10-\uff19'
    '\uff41-\uff5a\uff66-\uffbe\uffc2-\uffc7\uffca-\uffcf\uffd2-\uffd7\uffda-\uffdc'
    '\U00010000-\U0001000b\U0001000d-\U00010026\U00010028-\U0001003a\U0001003c-\U0001003d'
    '\U0001003f-\U0001004d\U00010050-\U0001005d\U00010080-\U000100fa\U00010107-\U00010133'
    '\U00010140-\U00010178\U0001018a-\U0001018b\U000101fd\U00010280-\U0001029c\U000102a0-\U000102d0'
    '\U000102e0-\U000102fb\U00010300-\U00010323\U0001032d-\U0001034a\U00010350-\U0001037a'
    '\U00010380-\U0001039d\U000103a0-\U000103c3\U000103c8-\U000103cf\U000103d1-\U000103d5'
    '\U00010428-\U0001049d\U000104a0-\U000104a9\U000104d8-\U000104fb\U00010500-\U00010527'
    '\U00010530-\U00010563\U00010597-\U000105a1\U000105a3-\U000105b1\U000105b3-\U000105b9'
    '\U000105bb-\U000105bc\U000105c0-\U000105f3\U00010600-\U00010736\U00010740-\U00010755'
    '\U00010760-\U00010767\U00010780-\U00010785\U00010787-\U000107b0\U000107b2-\U000107ba'
    '\U00010800-\U00010805\U00010808\U0001080a-\U00010835\U00010837-\U00010838\U0001083c'
    '\U0001083f-\U00010855\U00010858-\U00010876\U00010879-\U0001089e\U000108a7-\U000108af'
    '\U000108e0-\U000108f2\U000108f4-\U000108f5\U000108fb-\U0001091b\U00010920-\U00010939'
    '\U00010940-\U00010959\U00010980-\U000109b7\U000109bc-\U000109cf\U000109d2-\U00010a03'
    '\U00010a05-\U00010a06\U00010a0c-\U00010a13\U00010a15-\U00010a17\U00010a19-\U00010a35'
    '\U00010a38-\U00010a3a\U00010a3f-\U00010a48\U00010a60-\U00010a7e\U00010a80-\U00010a9f'
    '\U00010ac0-\U00010ac7\U00010ac9-\U00010ae6\U00010aeb-\U00010aef\U00010b00-\U00010b35'
    '\U00010b40-\U00010b55\U00010b58-\U00010b72\U00010b78-\U00010b91\U00010ba9-\U00010baf'
    '\U00010c00-\U00010c48\U00010cc0-\U00010cf2\U00010cfa-\U00010d27\U00010d30-\U00010d39'
    '\U00010d40-\U00010d4f\U00010d69-\U00010d6d\U00010d6f-\U00010d85\U00010e60-\U00010e7e'
    '\U00010e80-\U00010ea9\U00010eab-\U00010eac\U00010eb0-\U00010eb1\U00010ec2-\U00010ec7'
    '\U00010efa-\U00010f27\U00010f30-\U00010f54\U00010f70-\U00010f85\U00010fb0-\U00010fcb'
    '\U00010fe0-\U00010ff6\U00011000-\U00011046\U00011052-\U00011075\U0001107f-\U000110ba\U000110c2'
    '\U000110d0-\U000110e8\U000110f0-\U000110f9\U00011100-\U00011134\U00011136-\U0001113f'
    '\U00011144-\U00011147\U00011150-\U00011173\U00011176\U00011180-\U000111c4\U000111c9-\U000111cc'
    '\U000111ce-\U000111da\U000111dc\U000111e1-\U000111f4\U00011200-\U00011211\U00011213-\U00011237'
    '\U0001123e-\U00011241\U00011280-\U00011286\U00011288\U0001128a-\U0001128d\U0001128f-\U0001129d'
    '\U0001129f-\U000112a8\U000112b0-\U000112ea\U000112f0-\U000112f9\U00011300-\U00011303'
    '\U00011305-\U0001130c\U0001130f-\U00011310\U00011313-\U00011328\U0001132a-\U00011330'
    '\U00011332-\U00011333\U00011335-\U00011339\U0001133b-\U00011344\U00011347-\U00011348'
    '\U0001134b-\U0001134d\U00011350\U00011357\U0001135d-\U00011363\U00011366-\U0001136c'
    '\U00011370-\U00011374\U00011380-\U00011389\U0001138b\U0001138e\U00011390-\U000113b5'
    '\U000113b7-\U000113c0\U000113c2\U000113c5\U000113c7-\U000113ca\U000113cc-\U000113d3'
    '\U000113e1-\U000113e2\U00011400-\U0001144a\U00011450-\U00011459\U0001145e-\U00011461'
    '\U00011480-\U000114c5\U000114c7\U000114d0-\U000114d9\U00011580-\U000115b5\U000115b8-\U000115c0'
    '\U000115d8-\U000115dd\U00011600-\U00011640\U00011644\U00011650-\U00011659\U00011680-\U000116b8'
    '\U000116c0-\U000116c9\U000116d0-\U000116e3\U00011700-\U0001171a\U0001171d-\U0001172b'
    '\U00011730-\U0001173b\U00011740-\U00011746\U00011800-\U0001183a\U000118c0-\U000118f2'
    '\U000118ff-\U00011906\U00011909\U0001190c-\U00011913\U00011915-\U00011916\U00011918-\U00011935'
    '\U00011937-\U00011938\U0001193b-\U00011943\U00011950-\U00011959\U000119a0-\U000119a7'
    '\U000119aa-\U000119d7\U000119da-\U000119e1\U000119e3-\U000119e4\U00011a00-\U00011a3e\U00011a47'
    '\U00011a50-\U00011a99\U00011a9d\U00011ab0-\U00011af8\U00011b60-\U00011b67\U00011bc0-\U00011be0'
    '\U00011bf0-\U00011bf9\U00011c00-\U00011c08\U00011c0a-\U00011c36\U00011c38-\U00011c40'
    '\U00011c50-\U00011c6c\U00011c72-\U00011c8f\U00011c92-\U00011ca7\U00011ca9-\U00011cb6'
    '\U00011d00-\U00011d06\U00011d08-\U00011d09\U00011d0b-\U00011d36\U00011d3a\U00011d3c-\U00011d3d'
    '\U00011d3f-\U00011d47\U00011d50-\U00011d59\U00011d60-\U00011d65\U00011d67-\U00011d68'
    '\U00011d6a-\U00011d8e\U00011d90-\U00011d91\U00011d93-\U00011d98\U00011da0-\U00011da9'
    '\U00011db0-\U00011ddb\U00011de0-\U00011de9\U00011ee0-\U00011ef6\U00011f00-\U00011f10'
    '\U00011f12-\U00011f3a\U00011f3e-\U00011f42\U00011f50-\U00011f5a\U00011fb0\U00011fc0-\U00011fd4'
    '\U00012000-\U00012399\U00012400-\U0001246e\U00012480-\U00012543\U00012f90-\U00012ff0'
    '\U00013000-\U0001342f\U00013440-\U00013455\U00013460-\U000143fa\U00014400-\U00014646'
    '\U00016100-\U00016139\U00016800-\U00016a38\U00016a40-\U00016a5e\U00016a60-\U00016a69'
    '\U00016a70-\U00016abe\U00016ac0-\U00016ac9\U00016ad0-\U00016aed\U00016af0-\U00016af4'
    '\U00016b00-\U00016b36\U00016b40-\U00016b43\U00016b50-\U00016b59\U00016b5b-\U00016b61'
    '\U00016b63-\U00016b77\U00016b7d-\U00016b8f\U00016d40-\U00016d6c\U00016d70-\U00016d79'
    '\U00016e60-\U00016e96\U00016ebb-\U00016ed3\U00016f00-\U00016f4a\U00016f4f-\U00016f87'
    '\U00016f8f-\U00016f9f\U00016fe0-\U00016fe1\U00016fe3-\U00016fe4\U00016ff0-\U00016ff6'
    '\U00017000-\U00018cd5\U00018cff-\U00018d1e\U00018d80-\U00018df2\U0001aff0-\U0001aff3'
    '\U0001aff5-\U0001affb\U0001affd-\U0001affe\U0001b000-\U0001b122\U0001b132\U0001b150-\U0001b152'
    '\U0001b155\U0001b164-\U0001b167\U0001b170-\U0001b2fb\U0001bc00-\U0001bc6a\U0001bc70-\U0001bc7c'
    '\U0001bc80-\U0001bc88\U0001bc90-\U0001bc99\U0001bc9d-\U0001bc9e\U0001ccf0-\U0001ccf9'
    '\U0001cf00-\U0001cf2d\U0001cf30-\U0001cf46\U0001d165-\U0001d169\U0001d16d-\U0001d172'
    '\U0001d17b-\U0001d182\U0001d185-\U0001d18b\U0001d1aa-\U0001d1ad\U0001d242-\U0001d244'
    '\U0001d2c0-\U0001d2d3\U0001d2e0-\U0001d2f3\U0001d360-\U0001d378\U0001d400-\U0001d454'
    '\U0001d456-\U0001d49c\U0001d49e-\U0001d49f\U0001d4a2\U0001d4a5-\U0001d4a6\U0001d4a9-\U0001d4ac'
    '\U0001d4ae-\U0001d4b9\U0001d4bb\U0001d4bd-\U0001d4c3\U0001d4c5-\U0001d505\U0001d507-\U0001d50a'
    '\U0001d50d-\U0001d514\U0001d516-\U0001d51c\U0001d51e-\U0001d539\U0001d53b-\U0001d53e'
    '\U0001d540-\U0001d544\U0001d546\U0001d54a-\U0001d550\U0001d552-\U0001d6a5\U0001d6a8-\U0001d6c0'
    '\U0001d6c2-\U0001d6da\U0001d6dc-\U0001d6fa\U0001d6fc-\U0001d714\U0001d716-\U0001d734'
    '\U0001d736-\U0001d74e\U0001d750-\U0001d76e\U0001d770-\U0001d788\U0001d78a-\U0001d7a8'
    '\U0001d7aa-\U0001d7c2\U0001d7c4-\U0001d7cb\U0001d7ce-\U0001d7ff\U0001da00-\U0001da36'
    '\U0001da3b-\U0001da6c\U0001da75\U0001da84\U0001da9b-\U0001da9f\U0001daa1-\U0001daaf'
    '\U0001df00-\U0001df1e\U0001df25-\U0001df2a\U0001e000-\U0001e006\U0001e008-\U0001e018'
    '\U0001e01b-\U0001e021\U0001e023-\U0001e024\U0001e026-\U0001e02a\U0001e030-\U0001e06d\U0001e08f'
    '\U0001e100-\U0001e12c\U0001e130-\U0001e13d\U0001e140-\U0001e149\U0001e14e\U0001e290-\U0001e2ae'
    '\U0001e2c0-\U0001e2f9\U0001e4d0-\U0001e4f9\U0001e5d0-\U0001e5fa\U0001e6c0-\U0001e6de'
    '\U0001e6e0-\U0001e6f5\U0001e6fe-\U0001e6ff\U0001e7e0-\U0001e7e6\U0001e7e8-\U0001e7eb'
    '\U0001e7ed-\U0001e7ee\U0001e7f0-\U0001e7fe\U0001e800-\U0001e8c4\U0001e8c7-\U0001e8d6'
    '\U0001e922-\U0001e94b\U0001e950-\U0001e959\U0001ec71-\U0001ecab\U0001ecad-\U0001ecaf'
    '\U0001ecb1-\U0001ecb4\U0001ed01-\U0001ed2d\U0001ed2f-\U0001ed3d\U0001ee00-\U0001ee03'
    '\U0001ee05-\U0001ee1f\U0001ee21-\U0001ee22\U0001ee24\U0001ee27\U0001ee29-\U0001ee32'
    '\U0001ee34-\U0001ee37\U0001ee39\U0001ee3b\U0001ee42\U0001ee47\U0001ee49\U0001ee4b'
    '\U0001ee4d-\U0001ee4f\U0001ee51-\U0001ee52\U0001ee54\U0001ee57\U0001ee59\U0001ee5b\U0001ee5d'
    '\U0001ee5f\U0001ee61-\U0001ee62\U0001ee64\U0001ee67-\U0001ee6a\U0001ee6c-\U0001ee72'
    '\U0001ee74-\U0001ee77\U0001ee79-\U0001ee7c\U0001ee7e\U0001ee80-\U0001ee89\U0001ee8b-\U0001ee9b'
    '\U0001eea1-\U0001eea3\U0001eea5-\U0001eea9\U0001eeab-\U0001eebb\U0001f100-\U0001f10c'
    '\U0001fbf0-\U0001fbf9\U00020000-\U0002a6df\U0002a700-\U0002b81d\U0002b820-\U0002cead'
    '\U0002ceb0-\U0002ebe0\U0002ebf0-\U0002ee5d\U0002f800-\U0002fa1d\U00030000-\U0003134a'
    '\U00031350-\U00033479\U000e0100-\U000e01ef'
    ']+$');
END;
$$;

-- True when a scalar joins a project's '.' to the name after it or before it (0013's two classes),
-- so that the '.' does not split the project there as tally's ProjectPath splits it.
CREATE FUNCTION tally_project_dot_joined(project TEXT) RETURNS BOOLEAN LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN project ~ ('\.['
    '\u0300-\u036f\u0483-\u0487\u0591-\u05bd\u05bf\u05c1-\u05c2\u05c4-\u05c5\u05c7\u0610-\u061a'
    '\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7-\u06e8\u06ea-\u06ed\u0711\u0730-\u074a'
    '\u07a6-\u07b0\u07eb-\u07f3\u07fd\u0816-\u0819\u081b-\u0823\u0825-\u0827\u0829-\u082d'
    '\u0859-\u085b\u0897-\u089f\u08ca-\u08e1\u08e3-\u0903\u093a-\u093c\u093e-\u094f\u0951-\u0957'
    '\u0962-\u0963\u0981-\u0983\u09bc\u09be-\u09c4\u09c7-\u09c8\u09cb-\u09cd\u09d7\u09e2-\u09e3\u09fe'
    '\u0a01-\u0a03\u0a3c\u0a3e-\u0a42\u0a47-\u0a48\u0a4b-\u0a4d\u0a51\u0a70-\u0a71\u0a75\u0a81-\u0a83'
    '\u0abc\u0abe-\u0ac5\u0ac7-\u0ac9\u0acb-\u0acd\u0ae2-\u0ae3\u0afa-\u0aff\u0b01-\u0b03\u0b3c'
    '\u0b3e-\u0b44\u0b47-\u0b48\u0b4b-\u0b4d\u0b55-\u0b57\u0b62-\u0b63\u0b82\u0bbe-\u0bc2'
    '\u0bc6-\u0bc8\u0bca-\u0bcd\u0bd7\u0c00-\u0c04\u0c3c\u0c3e-\u0c44\u0c46-\u0c48\u0c4a-\u0c4d'
    '\u0c55-\u0c56\u0c62-\u0c63\u0c81-\u0c83\u0cbc\u0cbe-\u0cc4\u0cc6-\u0cc8\u0cca-\u0ccd'
    '\u0cd5-\u0cd6\u0ce2-\u0ce3\u0cf3\u0d00-\u0d03\u0d3b-\u0d3c\u0d3e-\u0d44\u0d46-\u0d48'
    '\u0d4a-\u0d4d\u0d57\u0d62-\u0d63\u0d81-\u0d83\u0dca\u0dcf-\u0dd4\u0dd6\u0dd8-\u0ddf\u0df2-\u0df3'
    '\u0e31\u0e33-\u0e3a\u0e47-\u0e4e\u0eb1\u0eb3-\u0ebc\u0ec8-\u0ece\u0f18-\u0f19\u0f35\u0f37\u0f39'
    '\u0f3e-\u0f3f\u0f71-\u0f84\u0f86-\u0f87\u0f8d-\u0f97\u0f99-\u0fbc\u0fc6\u102d-\u1037'
    '\u1039-\u103e\u1056-\u1059\u105e-\u1060\u1071-\u1074\u1082\u1084-\u1086\u108d\u109d\u135d-\u135f'
    '\u1712-\u1715\u1732-\u1734\u1752-\u1753\u1772-\u1773\u17b4-\u17d3\u17dd\u180b-\u180d\u180f'
    '\u1885-\u1886\u18a9\u1920-\u192b\u1930-\u193b\u1a17-\u1a1b\u1a55-\u1a5e\u1a60\u1a62\u1a65-\u1a7c'
    '\u1a7f\u1ab0-\u1abd\u1abf-\u1add\u1ae0-\u1aeb\u1b00-\u1b04\u1b34-\u1b44\u1b6b-\u1b73'
    '\u1b80-\u1b82\u1ba1-\u1bad\u1be6-\u1bf3\u1c24-\u1c37\u1cd0-\u1cd2\u1cd4-\u1ce8\u1ced\u1cf4'
    '\u1cf7-\u1cf9\u1dc0-\u1dff\u20d0-\u20dc\u20e1\u20e5-\u20f0\u2cef-\u2cf1\u2d7f\u2de0-\u2dff'
    '\u302a-\u302f\u3099-\u309a\ua66f\ua674-\ua67d\ua69e-\ua69f\ua6f0-\ua6f1\ua802\ua806\ua80b'
    '\ua823-\ua827\ua82c\ua880-\ua881\ua8b4-\ua8c5\ua8e0-\ua8f1\ua8ff\ua926-\ua92d\ua947-\ua953'
    '\ua980-\ua983\ua9b3-\ua9c0\ua9e5\uaa29-\uaa36\uaa43\uaa4c-\uaa4d\uaa7c\uaab0\uaab2-\uaab4'
    '\uaab7-\uaab8\uaabe-\uaabf\uaac1\uaaeb-\uaaef\uaaf5-\uaaf6\uabe3-\uabea\uabec-\uabed\ufb1e'
    '\ufe00-\ufe0f\ufe20-\ufe2f\uff9e-\uff9f\U000101fd\U000102e0\U00010376-\U0001037a'
    '\U00010a01-\U00010a03\U00010a05-\U00010a06\U00010a0c-\U00010a0f\U00010a38-\U00010a3a\U00010a3f'
    '\U00010ae5-\U00010ae6\U00010d24-\U00010d27\U00010d69-\U00010d6d\U00010eab-\U00010eac'
    '\U00010efa-\U00010eff\U00010f46-\U00010f50\U00010f82-\U00010f85\U00011000-\U00011002'
    '\U00011038-\U00011046\U00011070\U00011073-\U00011074\U0001107f-\U00011082\U000110b0-\U000110ba'
    '\U000110c2\U00011100-\U00011102\U00011127-\U00011134\U00011145-\U00011146\U00011173'
    '\U00011180-\U00011182\U000111b3-\U000111c0\U000111c9-\U000111cc\U000111ce-\U000111cf'
    '\U0001122c-\U00011237\U0001123e\U00011241\U000112df-\U000112ea\U00011300-\U00011303'
    '\U0001133b-\U0001133c\U0001133e-\U00011344\U00011347-\U00011348\U0001134b-\U0001134d\U00011357'
    '\U00011362-\U00011363\U00011366-\U0001136c\U00011370-\U00011374\U000113b8-\U000113c0\U000113c2'
    '\U000113c5\U000113c7-\U000113ca\U000113cc-\U000113d0\U000113d2\U000113e1-\U000113e2'
    '\U00011435-\U00011446\U0001145e\U000114b0-\U000114c3\U000115af-\U000115b5\U000115b8-\U000115c0'
    '\U000115dc-\U000115dd\U00011630-\U00011640\U000116ab-\U000116b7\U0001171d-\U0001171f'
    '\U00011722-\U0001172b\U0001182c-\U0001183a\U00011930-\U00011935\U00011937-\U00011938'
    '\U0001193b-\U0001193e\U00011940\U00011942-\U00011943\U000119d1-\U000119d7\U000119da-\U000119e0'
    '\U000119e4\U00011a01-\U00011a0a\U00011a33-\U00011a39\U00011a3b-\U00011a3e\U00011a47'
    '\U00011a51-\U00011a5b\U00011a8a-\U00011a99\U00011b60-\U00011b67\U00011c2f-\U00011c36'
    '\U00011c38-\U00011c3f\U00011c92-\U00011ca7\U00011ca9-\U00011cb6\U00011d31-\U00011d36\U00011d3a'
    '\U00011d3c-\U00011d3d\U00011d3f-\U00011d45\U00011d47\U00011d8a-\U00011d8e\U00011d90-\U00011d91'
    '\U00011d93-\U00011d97\U00011ef3-\U00011ef6\U00011f00-\U00011f01\U00011f03\U00011f34-\U00011f3a'
    '\U00011f3e-\U00011f42\U00011f5a\U00013440\U00013447-\U00013455\U0001611e-\U0001612f'
    '\U00016af0-\U00016af4\U00016b30-\U00016b36\U00016f4f\U00016f51-\U00016f87\U00016f8f-\U00016f92'
    '\U00016fe4\U00016ff0-\U00016ff1\U0001bc9d-\U0001bc9e\U0001cf00-\U0001cf2d\U0001cf30-\U0001cf46'
    '\U0001d165-\U0001d169\U0001d16d-\U0001d172\U0001d17b-\U0001d182\U0001d185-\U0001d18b'
    '\U0001d1aa-\U0001d1ad\U0001d242-\U0001d244\U0001da00-\U0001da36\U0001da3b-\U0001da6c\U0001da75'
    '\U0001da84\U0001da9b-\U0001da9f\U0001daa1-\U0001daaf\U0001e000-\U0001e006\U0001e008-\U0001e018'
    '\U0001e01b-\U0001e021\U0001e023-\U0001e024\U0001e026-\U0001e02a\U0001e08f\U0001e130-\U0001e136'
    '\U0001e2ae\U0001e2ec-\U0001e2ef\U0001e4ec-\U0001e4ef\U0001e5ee-\U0001e5ef\U0001e6e3\U0001e6e6'
    '\U0001e6ee-\U0001e6ef\U0001e6f5\U0001e8d0-\U0001e8d6\U0001e944-\U0001e94a\U000e0100-\U000e01ef'
    ']')
    OR project ~ ('['
    '\u0d4e\U000111c2-\U000111c3\U000113d1\U0001193f\U00011941\U00011a84-\U00011a89\U00011d46'
    '\U00011f02'
    ']\.');
END;
$$;

CREATE OR REPLACE FUNCTION tally_tags_ok(p_value JSONB) RETURNS BOOLEAN LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF p_value IS NULL OR jsonb_typeof(p_value) <> 'array' OR jsonb_array_length(p_value) > 20 THEN RETURN FALSE; END IF;
  RETURN NOT EXISTS (
    SELECT 1 FROM jsonb_array_elements(p_value) AS tag
    WHERE jsonb_typeof(tag) <> 'string' OR char_length(tag #>> '{}') > 32 OR CASE
      WHEN (tag #>> '{}') ~ '^[-_0-9a-z]+$' THEN FALSE
      WHEN NOT tally_tag_scalars_ok(tag #>> '{}') THEN TRUE
      WHEN current_setting('server_encoding') <> 'UTF8' THEN FALSE
      ELSE NOT ((tag #>> '{}') IS NFC NORMALIZED)
    END);
END;
$$;

CREATE OR REPLACE FUNCTION tally_todo_links_problem(p_data JSONB) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  uuid CONSTANT TEXT := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  project TEXT;
BEGIN
  IF p_data ? 'project' AND jsonb_typeof(p_data -> 'project') <> 'null' THEN
    project := p_data ->> 'project';
    IF jsonb_typeof(p_data -> 'project') <> 'string' OR char_length(project) > 100
       OR array_length(string_to_array(project, '.'), 1) > 8
       OR NOT tally_tags_ok(to_jsonb(string_to_array(project, '.')))
       OR (project !~ '^[-_0-9a-z.]+$' AND tally_project_dot_joined(project)) THEN
      RETURN 'field ''project'' is not up to 8 dotted names of 1-32 letters or digits, ''_'' and ''-'' (100 characters in all)';
    END IF;
  END IF;
  IF p_data ? 'after' THEN
    IF jsonb_typeof(p_data -> 'after') <> 'array' OR jsonb_array_length(p_data -> 'after') > 50 THEN
      RETURN 'field ''after'' is not at most 50 todos';
    END IF;
    IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_data -> 'after') AS id
               WHERE jsonb_typeof(id) <> 'string' OR (id #>> '{}') !~ uuid) THEN
      RETURN 'field ''after'' holds something that is not a lowercase UUID';
    END IF;
    IF (SELECT count(DISTINCT id) FROM jsonb_array_elements(p_data -> 'after') AS id) <> jsonb_array_length(p_data -> 'after') THEN
      RETURN 'field ''after'' names a todo twice';
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

REVOKE ALL ON FUNCTION tally_tag_scalars_ok(TEXT) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_project_dot_joined(TEXT) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_tags_ok(JSONB) FROM PUBLIC;
REVOKE ALL ON FUNCTION tally_todo_links_problem(JSONB) FROM PUBLIC;
