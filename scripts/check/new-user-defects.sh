#!/usr/bin/env bash
# Reproduces, at the command line, each wrong result and friction item a new user hit (issue 35)
# with the beattag binary given (any version: to compare two), and
# prints "ok" or "DEFECT" for each. Needs sqlite3 and python3-mutagen. Usage: new-user-defects.sh BEATTAG
set -u
B=$1
F=$(cd "$(dirname "$0")/../.." && pwd)/Fixtures/library
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
say() { if [ "${2:-0}" = 1 ]; then echo "ok      $1"; else echo "DEFECT  $1"; fi; }
q() { sqlite3 "$1" "$2"; }

# 1 rights: a sidecar added after a scan
mkdir -p "$w/r/A/B"; cp $F/rock-150.flac "$w/r/A/B/"
$B scan "$w/r" --catalog "$w/r.sqlite" >/dev/null 2>&1
printf 'source = cc-by-nd\n' > "$w/r/A/B/.beattag-rights"
$B scan "$w/r" --catalog "$w/r.sqlite" >/dev/null 2>&1
say "rights sidecar added after a scan applies on a plain rescan" $([ "$(q "$w/r.sqlite" "select sourceType from track")" = cc-by-nd ] && echo 1)
$B scan "$w/r" --source cc-by --catalog "$w/r2.sqlite" >/dev/null 2>&1; rm "$w/r/A/B/.beattag-rights"
$B scan "$w/r" --source user-owned --catalog "$w/r2.sqlite" >/dev/null 2>&1
say "--source changed on a rescan applies" $([ "$(q "$w/r2.sqlite" "select sourceType from track")" = user-owned ] && echo 1)

# 2 links
mkdir -p "$w/l/lib/a" "$w/l/else"; cp $F/dnb-174.ogg "$w/l/else/clip.ogg"; ln -s "$w/l/else/clip.ogg" "$w/l/lib/a/linked.ogg"
$B scan "$w/l/lib" --catalog "$w/l.sqlite" >/dev/null 2>&1
$B tag "$w/l/lib/a/linked.ogg" --bpm 100 --catalog "$w/l.sqlite" >/dev/null 2>&1
say "tag through a symlinked file" $([ "$(q "$w/l.sqlite" "select bpmManual from track")" = 100.0 ] && echo 1)
$B playlist --spm 100 --duration 1m -o "$w/l/p.m3u8" --catalog "$w/l.sqlite" >/dev/null 2>&1
say "playlist keeps the library path" $(grep -q "lib/a/linked.ogg" "$w/l/p.m3u8" 2>/dev/null && echo 1)

# 3 tag --write on M4A / WMA
mkdir -p "$w/t"; cp $F/encoded/trance-140-aac.m4a $F/encoded/trance-140.wma "$w/t/"
$B scan "$w/t" --catalog "$w/t.sqlite" >/dev/null 2>&1
$B tag "$w/t/trance-140-aac.m4a" --bpm 177 --write --catalog "$w/t.sqlite" >/dev/null 2>&1; m4a=$?
$B tag "$w/t/trance-140.wma" --bpm 177 --write --catalog "$w/t.sqlite" >/dev/null 2>&1; wma=$?
say "tag --write on MP4 and WMA succeeds" $([ $m4a = 0 ] && [ $wma = 0 ] && /usr/bin/python3 -c "import mutagen,sys; sys.exit(0 if str(mutagen.File('$w/t/trance-140-aac.m4a').tags.get('tmpo'))=='[177]' else 1)" && echo 1)
cp $F/encoded/trance-140-aac.m4a "$w/t/b.m4a"; $B scan "$w/t" --catalog "$w/t.sqlite" >/dev/null 2>&1
head -c 4096 /dev/zero > "$w/t/b.m4a"
$B tag "$w/t/b.m4a" --bpm 150 --write --catalog "$w/t.sqlite" >/dev/null 2>&1
say "a failed tag write leaves the catalog unchanged" $([ -z "$(q "$w/t.sqlite" "select bpmManual from track where path like '%b.m4a'")" ] && echo 1)

# 4 short runs exit 3
$B scan $F --catalog "$w/f.sqlite" >/dev/null 2>&1
$B playlist --spm 175 --duration 40m -o "$w/p.m3u8" --catalog "$w/f.sqlite" >/dev/null 2>&1; rc=$?
say "playlist far short of its time exits 3" $([ $rc = 3 ] && echo 1)
$B render --spm 175 --duration 3m --click -o "$w/s.ogg" --catalog "$w/f.sqlite" >/dev/null 2>&1; rc=$?
say "render mostly click exits 3" $([ $rc = 3 ] && echo 1)

# 5 one recording across encodings (fixtures: trance-140 as FLAC, AAC, WMA)
n=$($B match --spm 140 --json --catalog "$w/f.sqlite" 2>/dev/null | grep -o 'trance-140[^"]*"' | wc -l)
say "one recording offered once across FLAC/AAC/WMA" $([ "$n" = 1 ] && echo 1)

# 6 seeds
$B workout 4x4 --max-hr 190 --json --catalog "$w/f.sqlite" --profile "$w/p.toml" > /dev/null 2> "$w/e"
say "workout prints its seed" $(grep -q "seed" "$w/e" && echo 1)

# 7 friction
mkdir "$w/dir"; out=$($B scan $F/cc0 --catalog "$w/dir" 2>&1)
say "--catalog DIR says it is a folder" $(echo "$out" | grep -q "folder" && echo 1)
out=$($B analyze "$w/nope.flac" 2>&1)
say "analyze of a missing file says no such file, nothing else" $(echo "$out" | grep -q "no such file" && ! echo "$out" | grep -q libsndfile && echo 1)
out=$($B analyze $F/odd/notes.mp3 2>&1)
say "analyze of a text file leaks nothing from mpg123" $(! echo "$out" | grep -q Illegal && echo 1)
out=$($B tag "$w/nonexistent.flac" --bpm 100 --catalog "$w/f.sqlite" 2>&1)
say "tag of a missing file: no such file, path once" $(echo "$out" | grep -q "no such file" && [ $(echo "$out" | grep -o nonexistent.flac | wc -l) = 1 ] && echo 1)
$B scan "$w/nope" --catalog "$w/new.sqlite" >/dev/null 2>&1
say "scan of nothing makes no catalog" $([ ! -e "$w/new.sqlite" ] && echo 1)
$B zones --profile "$w/z.toml" >/dev/null 2>&1; a=$?; $B zones --rest-hr 120 --max-hr 100 --profile "$w/z.toml" >/dev/null 2>&1; b=$?
say "zones usage mistakes exit 64" $([ $a = 64 ] && [ $b = 64 ] && echo 1)
say "did you mean list" $($B lst 2>&1 | grep -q "did you mean 'list'" && echo 1)
say "--catalog before the command" $($B --catalog "$w/f.sqlite" list >/dev/null 2>&1 && echo 1)
say "stats counts outside its range" $($B stats --catalog "$w/f.sqlite" 2>&1 | grep -q "below 140" && echo 1)
say "list --liked exists" $($B list --liked --catalog "$w/f.sqlite" >/dev/null 2>&1 && echo 1)
w80=$(COLUMNS=80 $B list --catalog "$w/f.sqlite" | wc -L)
say "tables fit COLUMNS=80 (widest line $w80)" $([ "$w80" -le 80 ] && echo 1)
q "$w/f.sqlite" "update track set confidence = 0.5 where path like '%rock-150.flac'" 
say "untagged without full paths" $(! $B untagged --catalog "$w/f.sqlite" | grep -q "$F" && echo 1)
