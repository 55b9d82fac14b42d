
äÿÿÿÿÿÿÿÿ

A-op1"
B-op2""%ÿÿÿÿÿÿÿÿÿCommon(2LifeLongNone"0€€€€€€€€€Common (ÿÿÿÿÿÿÿÿÿ2LifeLongNone"8ÿÿÿÿÿÿÿÿCommon ÿÿÿÿÿÿÿÿÿ(ÿÿÿÿÿÿÿÿÿ2LifeLongNone")Common þÿÿÿÿÿÿÿÿ2LifeLongGraphEnd
s€€€€€€€€

A-op1"
B-op2""#€€€€€€€€€Common2LifeLongNone"%€€€€€€€€€Common(2LifeLongNoneÿÿÿÿÿÿÿÿÿ