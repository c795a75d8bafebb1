#!/bin/sh
# Trains the built-in network N14 again from the game records in nets/data/, with the recipe of
# docs/nnue.md ("The fourteenth built-in network (N14)"), and compares it with nets/default.nnue.
# Two stages: N12 ("The twelfth built-in network (N12)") on the files to s93, then N14 from N12's
# float checkpoint, grown into four king buckets and trained on, factorised, on the files to s99.
#
#   nets/recipe.sh [OUT_DIR]        # default target/net; writes OUT_DIR/N12.ckpt and OUT_DIR/N14.nnue
#   ARBITER=path/to/arbiter nets/recipe.sh      # train with that build instead of building one
#
# Needs xz, md5sum and cargo (unless ARBITER names a build). Builds the engine, checks the records against
# nets/data/MD5SUMS, unpacks them into OUT_DIR (about 850 MiB; kept for the next run), and trains
# niced on two threads: about 65 minutes for N12 and 55 for N14 on two 2.1 GHz Xeon cores (60.5 M positions,
# loaded in about 110 s; about 5 GB of memory). The trainer is deterministic for a build (any --threads), so
# the result is N14 byte for byte unless the trainer has changed since the commits that trained the two
# stages (docs/nnue.md). Exit status 0 when the file equals nets/default.nnue, 1 when it differs, 2 on an error.
set -eu
cd "$(dirname "$0")/.."
out=${1:-target/net}
# Every file of nets/data/ up to s93, hard (--nodes 2500) and soft (--soft-nodes 1000), in this order: N12's.
records="dg-7ff60c2-s30-n2500 dg-9523864-s31-n2500 dg-9098bd7-s32-n2500 dg-a90456c-s33-n2500 dg-a90456c-s101-n2500
    dg-a90456c-s35-n2500 dg-a90456c-s37-n2500 dg-0e39732-s39-n2500 dg-af3c5c3-s41-n2500 dg-4d0fd47-s43-n2500
    dg-4d0fd47-s45-n2500 dg-4d0fd47-s47-n2500 dg-2482808-s51-n2500 dg-df774b5-s53-n2500 dg-74807f3-s55-n2500
    dg-74807f3-s57-n2500 dg-74807f3-s59-n2500 dg-2482808-s49-soft1000 dg-74807f3-s61-soft1000
    dg-74807f3-s63-soft1000 dg-74807f3-s65-soft1000 dg-74807f3-s67-soft1000 dg-74807f3-s69-soft1000
    dg-74807f3-s71-soft1000 dg-b91b9fb-s73-soft1000 dg-b91b9fb-s75-soft1000 dg-b91b9fb-s77-soft1000
    dg-b91b9fb-s79-soft1000 dg-cad03c5-s81-soft1000 dg-5d0d63d-s83-soft1000 dg-892a51b-s85-soft1000
    dg-892a51b-s87-soft1000 dg-892a51b-s89-soft1000 dg-892a51b-s91-soft1000
    dg-d4a395d-s93-soft1000"
# N14 trains on those and then these.
later="dg-192df44-s95-soft1000 dg-aa359fd-s97-soft1000 dg-c1099bf-s99-soft1000"

for tool in xz md5sum; do
    command -v "$tool" >/dev/null || { echo "recipe: $tool is not installed" >&2; exit 2; }
done
(cd nets/data && md5sum --check --quiet MD5SUMS) || { echo "recipe: nets/data/ does not match MD5SUMS" >&2; exit 2; }
mkdir -p "$out"
net="$out/N14.nnue"

data=""
for r in $records $later; do
    if [ ! -s "$out/$r.games" ]; then
        echo "unpacking nets/data/$r.games.xz"
        xz --decompress --stdout "nets/data/$r.games.xz" >"$out/$r.games.part" || exit 2
        mv "$out/$r.games.part" "$out/$r.games"
    fi
done
n12_data=""
for r in $records; do n12_data="$n12_data $out/$r.games"; done
n14_data="$n12_data"
for r in $later; do n14_data="$n14_data $out/$r.games"; done

if [ -z "${ARBITER:-}" ]; then
    cargo build --release --quiet || exit 2
    ARBITER=./target/release/arbiter
fi
# The order of --data is part of the recipe (it orders the positions the seed shuffles).
# shellcheck disable=SC2086 # the lists are paths without spaces
nice -n 10 "$ARBITER" train --data $n12_data \
    --batch 4096 --lr 0.0005 --weight-decay 0.3 --seed 1 --threads 2 --lambda 0.1 --epochs 20 \
    --input-layout mirror --qat-epochs 0 --checkpoint "$out/N12.ckpt" || exit 2
# shellcheck disable=SC2086
nice -n 10 "$ARBITER" train --data $n14_data \
    --batch 4096 --lr 0.00025 --weight-decay 0.3 --seed 1 --threads 2 --lambda 0.1 --epochs 8 \
    --input-layout mirror4 --factorise --resume "$out/N12.ckpt" --qat-epochs 0 --out "$net" || exit 2

if cmp -s "$net" nets/default.nnue; then
    echo "recipe: $net is nets/default.nnue, byte for byte ($(md5sum <"$net" | cut -d' ' -f1))"
else
    echo "recipe: $net differs from nets/default.nnue" \
        "($(md5sum <"$net" | cut -d' ' -f1) against $(md5sum <nets/default.nnue | cut -d' ' -f1))" >&2
    exit 1
fi
