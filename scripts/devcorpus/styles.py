"""Style table for the dev corpus: tempo ranges, meters, drum/bass/chord patterns.

Grid patterns are strings with one character per grid step of one bar
(steps = beats_per_bar * steps_per_beat, beat 1 at step 0).

Drum characters: 'X' accent, 'x' normal, 'o' soft, 'g' ghost, '.' rest,
'r' a 32nd-note roll (2 hits in the step), 't' a triplet roll (3 hits).
Bass characters: 'R' root, '5' fifth, '8' octave, '3' third, '7' seventh,
'-' hold the previous note, '.' rest.
Chord characters: 'x' chord hit (held until the next event or '.'),
'-' hold, '.' rest, 'a' arpeggio note (cycles through the chord tones).
"""

# General MIDI percussion keys
K, S, ES, RIM, CLAP = 36, 38, 40, 37, 39
CH, PH, OH, CR, RD, BELL = 42, 44, 46, 49, 51, 53
TAMB, COW, SHK, CAB, CLAV, WBLK, AGOGO = 54, 56, 70, 69, 75, 76, 67
CONGA_H, CONGA_L, BONGO_H, BONGO_L = 62, 64, 60, 61
FTOM, LTOM, MTOM, HTOM = 41, 45, 47, 50

KITS = {0: 'Standard', 8: 'Room', 16: 'Power', 24: 'Electronic', 25: 'TR-808',
        32: 'Jazz', 40: 'Brush'}

# GM program groups
PIANO = [0, 1, 2]
EPIANO = [4, 5]
ORGAN = [16, 17, 18]
GTR_CLEAN = [26, 27]
GTR_NYLON = [24]
GTR_STEEL = [25]
GTR_DIST = [29, 30]
BASS_FINGER = [33, 34]
BASS_SYNTH = [38, 39]
BASS_ACOUSTIC = [32]
STRINGS = [48, 49, 50]
SYNTH_PAD = [88, 89, 90, 91, 94]
SYNTH_LEAD = [80, 81, 87]
BRASS = [61, 62]
SAX = [65, 66]
ACCORDION = [21, 23]

FOUR = 4  # steps per beat, straight 16ths
TRIP = 3  # steps per beat, triplet grid

# ---------------------------------------------------------------------------
# Drum patterns. Each style has a list of main grooves ('main'), optional
# 'half' (half-time feel) and 'double' (double-time feel) grooves.
# ---------------------------------------------------------------------------

FOUR_ON_FLOOR = {K: 'x...x...x...x...', OH: '..x...x...x...x.', CLAP: '....x.......x...'}

STYLES = [
    # name, bpm range, count (of 240), meter, beats/bar, steps/beat
    dict(name='house', bpm=(118, 130), n=9, meter='4/4', bpb=4, spb=FOUR,
         kits=[0, 24, 25, 8], integer_bpm=0.9,
         main=[FOUR_ON_FLOOR,
               {K: 'x...x...x...x...', OH: '..x...x...x...x.', CH: 'o.o.o.o.o.o.o.o.', CLAP: '....x.......x...'},
               {K: 'x...x...x...x...', OH: '..x...x...x...x.', SHK: 'gogogogogogogogo', S: '....x.......x...'}],
         bass='..R-..R-..R-..R8', chords=['x..x..x...x..x..', 'x-------x-------'],
         progs=dict(bass=BASS_SYNTH, chords=EPIANO + PIANO + ORGAN, lead=SYNTH_LEAD, pad=SYNTH_PAD),
         swing=(0.52, 0.58), swing_p=0.3, hard=['breakdown', 'build'], tempo=['steady'] * 9 + ['drift']),
    dict(name='techno', bpm=(124, 136), n=6, meter='4/4', bpb=4, spb=FOUR,
         kits=[24, 25], integer_bpm=1.0,
         main=[{K: 'X...X...X...X...', OH: '..x...x...x...x.', CH: 'oooooooooooooooo', RIM: '......x.....x..x'},
               {K: 'X...X...X...X...', OH: '..x...x...x...x.', CLAP: '....x.......x...', COW: '...x.....x....x.'}],
         bass='R.RRR.RRR.RRR.RR', chords=['..x...x...x...x.', 'x.....x.....x...'],
         progs=dict(bass=BASS_SYNTH, chords=SYNTH_LEAD, lead=SYNTH_LEAD, pad=SYNTH_PAD),
         hard=['breakdown', 'build'], tempo=['steady']),
    dict(name='trance', bpm=(128, 145), n=7, meter='4/4', bpb=4, spb=FOUR,
         kits=[24, 25, 0], integer_bpm=1.0,
         main=[{K: 'x...x...x...x...', OH: '..x...x...x...x.', CH: 'o.o.o.o.o.o.o.o.', CLAP: '....x.......x...'}],
         bass='..R8..R8..R8..R8', chords=['aaaaaaaaaaaaaaaa', 'x---------------'],
         progs=dict(bass=BASS_SYNTH, chords=SYNTH_LEAD + [81], lead=SYNTH_LEAD, pad=SYNTH_PAD),
         hard=['breakdown', 'build'], tempo=['steady']),
    dict(name='cardio', bpm=(150, 185), n=9, meter='4/4', bpb=4, spb=FOUR,
         kits=[24, 25, 0], integer_bpm=1.0,
         main=[{K: 'x...x...x...x...', OH: '..x...x...x...x.', CLAP: '....x.......x...', CH: 'oooooooooooooooo'},
               {K: 'x...x...x...x...', CH: '..x...x...x...x.', S: '....x.......x...'}],
         bass='..R-..R-..R-..R-', chords=['x..x..x...x..x..', 'x-------x-------'],
         progs=dict(bass=BASS_SYNTH, chords=SYNTH_LEAD + PIANO, lead=SYNTH_LEAD, pad=SYNTH_PAD),
         hard=['breakdown', 'build'], tempo=['steady']),
    dict(name='dubstep', bpm=(138, 142), n=6, meter='4/4', bpb=4, spb=FOUR,
         kits=[24, 25], integer_bpm=1.0,
         convention='half-time feel (snare on 3); bpm = 140-grid quarter, half-time pulse = 0.5x',
         main=[{K: 'x.........x.....', S: '........X.......', CH: 'x.x.x.x.x.x.x.xr'},
               {K: 'x......x..x.....', CLAP: '........X.......', S: '........x.......', CH: 'x.x.x.x.x.x.xxxx'}],
         bass='R-------R---5-.-', chords=['x---------------'],
         progs=dict(bass=[38, 87], chords=SYNTH_PAD, lead=SYNTH_LEAD, pad=SYNTH_PAD),
         hard=['breakdown', 'build'], tempo=['steady']),
    dict(name='dnb', bpm=(165, 180), n=9, meter='4/4', bpb=4, spb=FOUR,
         kits=[24, 25, 0, 8], integer_bpm=1.0,
         convention='annotated at the fast tempo (snare 2&4 of the fast bar); half-time feel reading = 0.5x',
         main=[{K: 'x.........x.....', S: '....x.......x...', CH: 'x.x.x.x.x.x.x.x.'},
               {K: 'x.........x.....', S: '....x..g.g..x..g', CH: 'xoxoxoxoxoxoxoxo'},
               {K: 'x.........x.....', CLAP: '....x.......x...', SHK: 'oooooooooooooooo'}],
         half=[{K: 'x.........x.....', S: '........x.......', CH: 'x.x.x.x.x.x.x.x.'}],
         bass='R-------....R---', chords=['x---------------'],
         progs=dict(bass=BASS_SYNTH + [87], chords=SYNTH_PAD + STRINGS, lead=SYNTH_LEAD, pad=SYNTH_PAD),
         hard=['breakdown', 'half'], tempo=['steady']),
    dict(name='trap', bpm=(130, 150), n=7, meter='4/4', bpb=4, spb=FOUR,
         kits=[25, 24], integer_bpm=1.0,
         convention='half-time feel: annotated at the fast tempo with the snare/clap on beat 3; half-time reading = 0.5x',
         main=[{K: 'x......x..x.....', CLAP: '........X.......', CH: 'x.x.x.x.xrx.x.tt'},
               {K: 'x.....x...x..x..', CLAP: '........X.......', CH: 'xxx.xrx.x.x.tttt', OH: '...............x'}],
         bass='R-------..R-----', chords=['x---------------', 'x.......x.......'],
         progs=dict(bass=[38, 39, 87], chords=SYNTH_PAD + PIANO + [11], lead=SYNTH_LEAD + [11], pad=SYNTH_PAD),
         hard=['breakdown'], tempo=['steady']),
    dict(name='rock', bpm=(100, 160), n=12, meter='4/4', bpb=4, spb=FOUR,
         kits=[0, 8, 16], integer_bpm=0.4,
         main=[{K: 'x.......x.x.....', S: '....x.......x...', CH: 'x.x.x.x.x.x.x.x.'},
               {K: 'x.x.....x.x.....', S: '....x.......x...', RD: 'x.x.x.x.x.x.x.x.'},
               {K: 'x......xx.......', S: '....x.......x...', OH: 'x.x.x.x.x.x.x.x.'}],
         half=[{K: 'x.........x.....', S: '........x.......', CH: 'x.x.x.x.x.x.x.x.'}],
         double=[{K: 'x...x...x...x...', S: '..x...x...x...x.', CH: 'x.x.x.x.x.x.x.x.'}],
         bass='R-R-R-R-R-R-R-R-', chords=['x-x-x-x-x-x-x-x-', 'x-------x-------'],
         progs=dict(bass=BASS_FINGER + [34], chords=GTR_DIST + GTR_CLEAN, lead=GTR_DIST + ORGAN, pad=ORGAN),
         hard=['half', 'double', 'breakdown'], swing=(0.58, 0.64), swing_p=0.1, swing_unit=8,
         tempo=['steady', 'drift', 'drift', 'accel']),
    dict(name='punk', bpm=(160, 200), n=8, meter='4/4', bpb=4, spb=FOUR, extreme=(200, 210, 0.35),
         kits=[16, 0, 8], integer_bpm=0.4,
         main=[{K: 'x...x...x...x...', S: '..x...x...x...x.', CR: 'x...x...x...x...'},
               {K: 'x.......x.x.....', S: '....x.......x...', CH: 'x.x.x.x.x.x.x.x.'},
               {K: 'x.x.....x.x.....', S: '....x.......x...', RD: 'x.x.x.x.x.x.x.x.'}],
         half=[{K: 'x.......x.......', S: '........x.......', CH: 'x.x.x.x.x.x.x.x.'}],
         bass='RRRRRRRRRRRRRRRR', bass_step=2, chords=['x.x.x.x.x.x.x.x.'],
         progs=dict(bass=[34, 33], chords=GTR_DIST, lead=GTR_DIST, pad=GTR_DIST),
         hard=['half', 'breakdown'], tempo=['steady', 'drift', 'accel']),
    dict(name='metal', bpm=(140, 190), n=9, meter='4/4', bpb=4, spb=FOUR,
         kits=[16, 0], integer_bpm=0.6,
         main=[{K: 'xxxxxxxxxxxxxxxx', S: '....x.......x...', CR: 'x...x...x...x...'},
               {K: 'x.x.x.x.x.x.x.x.', S: '....x.......x...', RD: 'x.x.x.x.x.x.x.x.'},
               {K: 'xx.xxx.xxx.xxx.x', S: '....x.......x...', CH: 'x.x.x.x.x.x.x.x.'}],
         half=[{K: 'xxxxxxxxxxxxxxxx', S: '........x.......', CR: 'x.......x.......'}],
         bass='RRRRRRRRRRRRRRRR', bass_step=2, chords=['x.x.x.x.x.x.x.x.', 'xxxxxxxxxxxxxxxx'],
         progs=dict(bass=[34, 33], chords=[30, 29], lead=[30, 29], pad=[30]),
         hard=['half', 'breakdown'], tempo=['steady', 'drift']),
    dict(name='pop', bpm=(95, 126), n=11, meter='4/4', bpb=4, spb=FOUR,
         kits=[0, 24, 8], integer_bpm=0.7,
         main=[{K: 'x.....x.x.......', S: '....x.......x...', CH: 'xoxoxoxoxoxoxoxo'},
               {K: 'x..x..x.x.......', CLAP: '....x.......x...', CH: 'xoxoxoxoxoxoxoxo', SHK: 'gogogogogogogogo'},
               {K: 'x.......x.....x.', S: '....x.......x...', CH: 'x.x.x.x.x.x.x.x.'}],
         half=[{K: 'x.........x.....', S: '........x.......', CH: 'x.x.x.x.x.x.x.x.'}],
         double=[{K: 'x.x.x.x.x.x.x.x.', S: '..x...x...x...x.', CH: 'xxxxxxxxxxxxxxxx'}],
         bass='R..R..R.R.....5.', chords=['x-----x-x-------', 'x-------x-------', '..x...x...x...x.'],
         progs=dict(bass=BASS_FINGER + BASS_SYNTH, chords=PIANO + EPIANO + GTR_CLEAN, lead=SYNTH_LEAD + [73, 11], pad=SYNTH_PAD + STRINGS),
         hard=['half', 'double', 'breakdown'], tempo=['steady', 'steady', 'drift']),
    dict(name='slowjam', bpm=(60, 80), n=9, meter='4/4', bpb=4, spb=FOUR,
         kits=[24, 25, 0], integer_bpm=0.6,
         main=[{K: 'x......x..x.....', S: '....x.......x...', CH: 'xxxxxxxxxxxxxxxx'},
               {K: 'x.....x...x..x..', CLAP: '....x.......x...', CH: 'xxrxxxrxxxrxxxrx'},
               {K: 'x..x......x.....', S: '....x.......x...', CH: 'rrrrrrrrrrrrrrrr'}],
         bass='R-----R---5-----', chords=['x-------x-------', 'x---------------'],
         progs=dict(bass=BASS_SYNTH + BASS_FINGER, chords=EPIANO + PIANO, lead=SAX + SYNTH_LEAD, pad=SYNTH_PAD + STRINGS),
         swing=(0.52, 0.56), swing_p=0.3, hard=['breakdown', 'double'],
         double=[{K: 'x.x...x.x.x.....', S: '..x...x...x...x.', CH: 'xxxxxxxxxxxxxxxx'}],
         tempo=['steady', 'steady', 'drift']),
    dict(name='ballad', bpm=(55, 85), n=8, meter='4/4', bpb=4, spb=FOUR, extreme=(50, 60, 0.3),
         kits=[40, 32], integer_bpm=0.3, drumless_p=0.2,
         main=[{K: 'x.......x.......', S: '....o.......o...', RD: 'o...o...o...o...'},
               {K: 'x.......x.......', S: 'gggggggggggggggg', PH: '....o.......o...'},
               {K: 'x.....x.x.......', RIM: '....x.......x...', CH: 'o.o.o.o.o.o.o.o.'}],
         bass='R-------5-------', chords=['a.a.a.a.a.a.a.a.', 'x-------x-------'],
         progs=dict(bass=BASS_ACOUSTIC + BASS_FINGER, chords=PIANO + GTR_NYLON + GTR_STEEL, lead=STRINGS + [73, 71], pad=STRINGS),
         double=[{K: 'x.x.....x.x.....', S: '..x...x...x...x.', CH: 'x.x.x.x.x.x.x.x.'}],
         hard=['breakdown', 'double'], tempo=['steady', 'drift', 'drift']),
    dict(name='gospel', bpm=(58, 76), n=6, meter='4/4', bpb=4, spb=TRIP,
         kits=[0, 8, 32], integer_bpm=0.3,
         convention='12/8 feel written as 4/4 with triplet subdivision; beat = dotted quarter of 12/8 (4 per bar); eighth-triplet pulse = 3x',
         main=[{K: 'x.....x.....', S: '...x.....x..', CH: 'xoxxoxxoxxox'},
               {K: 'x....xx.....', S: '...X.....X..', RD: 'x.ox.ox.ox.o'}],
         bass='R-----5--R--', chords=['aaaaaaaaaaaa', 'x..x..x..x..'],
         progs=dict(bass=BASS_FINGER, chords=ORGAN + PIANO, lead=ORGAN + SAX, pad=ORGAN + [52, 53]),
         hard=['breakdown'], tempo=['steady', 'drift']),
    dict(name='hiphop', bpm=(80, 100), n=9, meter='4/4', bpb=4, spb=FOUR,
         kits=[8, 0, 25], integer_bpm=0.7,
         main=[{K: 'x.......x.x.....', S: '....x.......x...', CH: 'x.x.x.x.x.x.x.x.'},
               {K: 'x......x..x.....', S: '....x.......x..g', CH: 'xxxxxxxxxxxxxxxx'},
               {K: 'x..x......x..x..', S: '....x.......x...', CH: 'x.xxx.xxx.xxx.xx'}],
         bass='R-.....R..R-....', chords=['x-------x-------', '...x.......x....'],
         progs=dict(bass=BASS_FINGER + BASS_ACOUSTIC + BASS_SYNTH, chords=EPIANO + PIANO + [11, 48], lead=[73, 65, 11], pad=STRINGS),
         swing=(0.56, 0.64), swing_p=0.8, laid_back=(4, 15), hard=['breakdown'], tempo=['steady']),
    dict(name='lofi', bpm=(70, 90), n=8, meter='4/4', bpb=4, spb=FOUR,
         kits=[8, 32, 25], integer_bpm=0.6,
         main=[{K: 'x.......x.x.....', S: '....x.......x...', CH: 'x.x.x.x.x.x.x.x.'},
               {K: 'x......x..x.....', RIM: '....x.......x...', CH: 'xoxoxoxoxoxoxoxo'}],
         bass='R-------..R-5-..', chords=['x-------x-------', 'x---------------'],
         progs=dict(bass=BASS_ACOUSTIC + BASS_FINGER, chords=EPIANO + [0, 11], lead=[11, 12, 73], pad=SYNTH_PAD),
         swing=(0.56, 0.66), swing_p=1.0, laid_back=(5, 20), force_noise='vinyl', force_eq='lofi',
         hard=['breakdown'], tempo=['steady', 'drift']),
    dict(name='funk', bpm=(95, 115), n=8, meter='4/4', bpb=4, spb=FOUR,
         kits=[0, 8], integer_bpm=0.4,
         main=[{K: 'x..x..x...x..x..', S: '....x..g.g..x..g', CH: 'xxxxxxxxxxxxxxxx'},
               {K: 'x.x...x..x.x....', S: '.g..x.gg.g..x.g.', CH: 'xoxoxoxoxoxoxoxo', OH: '...............x'}],
         bass='R..R..8.R.5..R.7', chords=['.x..x.x..x..x.x.', '..x...x...x...x.'],
         progs=dict(bass=BASS_FINGER + [36, 37], chords=GTR_CLEAN + [7, 4], lead=BRASS + SAX, pad=ORGAN),
         swing=(0.52, 0.58), swing_p=0.6, hard=['breakdown'], tempo=['steady', 'drift']),
    dict(name='disco', bpm=(110, 125), n=7, meter='4/4', bpb=4, spb=FOUR,
         kits=[0, 24], integer_bpm=0.7,
         main=[{K: 'x...x...x...x...', S: '....x.......x...', OH: '..x...x...x...x.', CH: 'x.o.x.o.x.o.x.o.'}],
         bass='R-8-R-8-R-8-R-8-', chords=['..x...x...x...x.', 'x.x.x.x.x.x.x.x.'],
         progs=dict(bass=BASS_FINGER + [38], chords=STRINGS + GTR_CLEAN + PIANO, lead=STRINGS + BRASS, pad=STRINGS),
         hard=['breakdown'], tempo=['steady', 'drift']),
    dict(name='motown', bpm=(100, 130), n=7, meter='4/4', bpb=4, spb=FOUR,
         kits=[0, 8], integer_bpm=0.3,
         main=[{K: 'x...x...x...x...', S: '....x.......x...', TAMB: 'x...x...x...x...', CH: 'x.x.x.x.x.x.x.x.'},
               {K: 'x.....x.x.......', S: 'x...x...x...x...', TAMB: '....x.......x...'}],
         bass='R..5R...R..5R-8-', chords=['....x.......x...', 'x...x...x...x...'],
         progs=dict(bass=BASS_FINGER, chords=PIANO + GTR_CLEAN, lead=SAX + BRASS, pad=ORGAN + STRINGS),
         hard=['breakdown'], tempo=['steady', 'drift', 'drift']),
    dict(name='reggae', bpm=(65, 85), n=7, meter='4/4', bpb=4, spb=FOUR,
         kits=[0, 8], integer_bpm=0.5,
         convention='one-drop: kick+snare on beat 3 only, skank chords on offbeats; beat = quarter (offbeat skank = 2x reading)',
         main=[{K: '........x.......', RIM: '........x.......', CH: 'x.x.x.x.x.x.x.x.'},
               {K: '........x.......', S: '........x.......', CH: 'x.xxx.xxx.xxx.xx'}],
         bass='R---..5.R-..3-..', chords=['..x...x...x...x.'],
         progs=dict(bass=BASS_FINGER + BASS_ACOUSTIC, chords=[27, 17, 4], lead=ORGAN + BRASS, pad=ORGAN),
         swing=(0.55, 0.62), swing_p=0.6, swing_unit=8, hard=['breakdown'], tempo=['steady', 'drift']),
    dict(name='ska', bpm=(140, 180), n=7, meter='4/4', bpb=4, spb=FOUR,
         kits=[0, 8], integer_bpm=0.4,
         main=[{K: 'x.......x.......', S: '....x.......x...', CH: '..x...x...x...x.'},
               {K: 'x...x...x...x...', S: '....x.......x...', RD: 'x.x.x.x.x.x.x.x.'}],
         bass='R...3...5...3...', chords=['..x...x...x...x.'],
         progs=dict(bass=BASS_FINGER + BASS_ACOUSTIC, chords=[27, 28], lead=BRASS + SAX, pad=ORGAN),
         hard=['breakdown'], tempo=['steady', 'drift']),
    dict(name='reggaeton', bpm=(88, 100), n=7, meter='4/4', bpb=4, spb=FOUR,
         kits=[25, 24], integer_bpm=1.0,
         main=[{K: 'x...x...x...x...', S: '...x..x....x..x.', CH: 'x.x.x.x.x.x.x.x.'},
               {K: 'x...x...x...x...', CLAP: '...x..x....x..x.', SHK: 'oooooooooooooooo'}],
         bass='R-....R.R-....R.', chords=['x--x--x.x--x--x.'],
         progs=dict(bass=BASS_SYNTH, chords=SYNTH_PAD + [0, 4], lead=SYNTH_LEAD, pad=SYNTH_PAD),
         hard=['breakdown'], tempo=['steady']),
    dict(name='country', bpm=(140, 190), n=7, meter='4/4', bpb=4, spb=FOUR,
         kits=[40, 0, 8], integer_bpm=0.4,
         convention='train beat: snare 8ths with accents on 2&4',
         main=[{K: 'x.......x.......', S: 'o.x.o.x.o.x.o.x.'},
               {K: 'x...x...x...x...', S: 'o.o.x.o.o.o.x.o.', CH: 'x.x.x.x.x.x.x.x.'}],
         bass='R...5...R...5...', chords=['..x...x...x...x.'],
         progs=dict(bass=BASS_ACOUSTIC + BASS_FINGER, chords=GTR_STEEL + [105], lead=[110, 22, 25], pad=[21]),
         hard=['breakdown'], tempo=['steady', 'drift']),
    dict(name='countryshuffle', bpm=(90, 130), n=5, meter='4/4', bpb=4, spb=TRIP,
         kits=[40, 0, 32], integer_bpm=0.4,
         convention='shuffle (triplet 8ths); beat = quarter',
         main=[{K: 'x.....x.....', S: '...x.....x..', CH: 'x.xx.xx.xx.x'},
               {K: 'x..x..x..x..', S: '...x.....x..', RD: 'x.xx.xx.xx.x'}],
         bass='R.....5.....', chords=['...x.....x..', 'x.xx.xx.xx.x'],
         progs=dict(bass=BASS_ACOUSTIC + BASS_FINGER, chords=GTR_STEEL + GTR_CLEAN, lead=[110, 25, 22], pad=[21, 16]),
         hard=['breakdown'], tempo=['steady', 'drift']),
    dict(name='blues', bpm=(70, 120), n=7, meter='4/4', bpb=4, spb=TRIP,
         kits=[0, 8, 32, 40], integer_bpm=0.3,
         convention='shuffle (swing 8ths on triplet grid); beat = quarter',
         main=[{K: 'x.....x.....', S: '...x.....x..', CH: 'x.xx.xx.xx.x'},
               {K: 'x..x..x..x..', S: '...x.....x..', RD: 'x.xx.xx.xx.x'}],
         bass='R.3.5.6.5.3.', chords=['x.xx.xx.xx.x', '...x.....x..'],
         progs=dict(bass=BASS_FINGER + BASS_ACOUSTIC, chords=GTR_CLEAN + PIANO, lead=[29, 22, 65], pad=ORGAN),
         hard=['breakdown'], tempo=['steady', 'drift', 'drift']),
    dict(name='swing', bpm=(120, 200), n=8, meter='4/4', bpb=4, spb=TRIP, extreme=(200, 210, 0.35),
         kits=[32, 40], integer_bpm=0.3,
         convention='swing: ride ding-ding-a-ding, hi-hat pedal on 2&4, walking bass; beat = quarter',
         main=[{RD: 'x..x.xx..x.x', PH: '...x.....x..', K: 'g..g..g..g..'},
               {RD: 'x..x.xx..x.x', PH: '...x.....x..', S: '.....g.....g'}],
         bass='walk', chords=['...x.....x..', '.....x.x....', 'x.....x.....'],
         progs=dict(bass=BASS_ACOUSTIC, chords=PIANO + [26], lead=SAX + BRASS + [56], pad=[65]),
         hard=['breakdown'], tempo=['steady', 'drift', 'drift']),
    dict(name='bossa', bpm=(120, 142), n=6, meter='4/4', bpb=4, spb=FOUR,
         kits=[32, 40, 0], integer_bpm=0.4,
         convention='annotated at the quarter note in 4/4 (bossa is often written in 2/2 at half this rate = 0.5x)',
         main=[{K: 'x.....x.x.....x.', RIM: 'x..x..x...x..x..', CH: 'x.x.x.x.x.x.x.x.'},
               {K: 'x.....x.x.....x.', RIM: '..x..x...x..x...', SHK: 'xoooxoooxoooxooo'}],
         bass='R-----5-R-----5-', chords=['x..x..x...x..x..', 'x...x.x...x...x.'],
         progs=dict(bass=BASS_ACOUSTIC + BASS_FINGER, chords=GTR_NYLON + PIANO, lead=[73, 65, 11], pad=STRINGS),
         hard=['breakdown'], tempo=['steady', 'drift']),
    dict(name='samba', bpm=(90, 110), n=5, meter='2/4', bpb=2, spb=FOUR,
         kits=[0, 8], integer_bpm=0.4,
         convention='2/4; beat = quarter (surdo pulse, accent on 2); 16th-note drive = 4x',
         main=[{FTOM: 'x...X...', SHK: 'xoxxxoxx', TAMB: 'x.xx.x.x', AGOGO: 'x..x..x.', S: 'g.gxg.gx'}],
         bass='R-..5-..', chords=['x..x..x.', '.x.x.x.x'],
         progs=dict(bass=BASS_ACOUSTIC + BASS_FINGER, chords=GTR_NYLON + [24], lead=[73, 56, 65], pad=BRASS),
         hard=['breakdown'], tempo=['steady', 'drift']),
    dict(name='afrobeat', bpm=(100, 120), n=6, meter='4/4', bpb=4, spb=FOUR,
         kits=[0, 8], integer_bpm=0.4,
         main=[{K: 'x.....x...x.....', S: '....x..g.g..x..g', CH: 'x.x.x.x.x.x.x.xo', COW: 'x.x.xx.x.x.x.xx.', CONGA_H: '..x..x....x..x..'},
               {K: 'x..x......x..x..', S: '.g..x.g..g..x...', SHK: 'xoxoxoxoxoxoxoxo', CONGA_L: 'x..x..x...x..x..'}],
         bass='R..R.5..R..8.5..', chords=['.x.x..x..x.x..x.'],
         progs=dict(bass=BASS_FINGER, chords=GTR_CLEAN + ORGAN, lead=BRASS + SAX, pad=ORGAN),
         hard=['breakdown'], tempo=['steady', 'drift']),
    dict(name='polka', bpm=(100, 132), n=6, meter='2/4', bpb=2, spb=FOUR,
         kits=[0, 8], integer_bpm=0.5,
         convention='2/4 polka/march; beat = quarter (oom-pah: bass on the beat, chord on the offbeat)',
         main=[{K: 'x...x...', S: '..x...x.', CR: '..o...o.'},
               {K: 'x...x...', S: 'x.xxx.xx', CR: 'x.......'}],
         bass='R...5...', chords=['..x...x.'],
         progs=dict(bass=[58, 32], chords=ACCORDION + [0], lead=[56, 71, 21], pad=[61]),
         hard=['breakdown'], tempo=['steady', 'drift']),
    dict(name='synthwave', bpm=(80, 118), n=7, meter='4/4', bpb=4, spb=FOUR,
         kits=[24, 25, 0], integer_bpm=0.8,
         main=[{K: 'x...x...x...x...', S: '....X.......X...', CH: 'x.x.x.x.x.x.x.x.'},
               {K: 'x.......x.x.....', S: '....X.......X...', CH: 'xxxxxxxxxxxxxxxx'}],
         bass='R.R.R.R.R.R.R.R.', chords=['x---------------', 'aaaaaaaaaaaaaaaa'],
         progs=dict(bass=BASS_SYNTH, chords=SYNTH_PAD + [81], lead=SYNTH_LEAD, pad=SYNTH_PAD),
         hard=['breakdown', 'half'], half=[{K: 'x.........x.....', S: '........X.......', CH: 'x.x.x.x.x.x.x.x.'}],
         tempo=['steady']),
    # ---------------- drum-less / acoustic ----------------
    dict(name='piano', bpm=(60, 120), n=8, meter='4/4', bpb=4, spb=FOUR, extreme=(50, 60, 0.2),
         kits=[], integer_bpm=0.0, drumless_p=1.0,
         convention='solo piano',
         main=[{}], bass='R-------5-------', chords=['.aaa.aaa.aaa.aaa', 'a.a.a.a.a.a.a.a.', 'x---x---x---x---'],
         progs=dict(bass=[0], chords=[0], lead=[0], pad=[0]), solo_instrument=True,
         hard=[], tempo=['rubato', 'rubato', 'rubato', 'drift', 'steady']),
    dict(name='strings', bpm=(60, 110), n=6, meter='4/4', bpb=4, spb=FOUR,
         kits=[], integer_bpm=0.2, drumless_p=1.0,
         convention='string ensemble, sustained legato',
         main=[{}], bass='R-------5-------', chords=['x-------x-------', 'x---------------'],
         progs=dict(bass=[42, 43], chords=[48, 49], lead=[40, 41, 48], pad=[49]),
         hard=[], tempo=['drift', 'steady', 'rubato']),
    dict(name='guitar', bpm=(70, 120), n=6, meter='4/4', bpb=4, spb=FOUR,
         kits=[], integer_bpm=0.3, drumless_p=1.0,
         convention='solo guitar arpeggios',
         main=[{}], bass='R-------5-------', chords=['a.a.a.a.a.a.a.a.', 'aaaaaaaaaaaaaaaa'],
         progs=dict(bass=[24, 25], chords=[24, 25], lead=[24, 25], pad=[24]), solo_instrument=True,
         hard=[], tempo=['drift', 'steady', 'rubato']),
    dict(name='waltz', bpm=(90, 180), n=7, meter='3/4', bpb=3, spb=FOUR,
         kits=[0, 40, 32], integer_bpm=0.3, drumless_p=0.6,
         convention='3/4: beat = quarter (3 per bar); bar-level reading = 1/3x',
         main=[{K: 'x...........', S: '....o...o...', RD: 'x...x...x...'},
               {K: 'x...........', PH: '....x...x...'}],
         bass='R-----------', chords=['....x...x...', 'a.a.a.a.a.a.'],
         progs=dict(bass=[32, 0, 58], chords=ACCORDION + PIANO + STRINGS, lead=[40, 73, 21], pad=STRINGS),
         hard=['breakdown'], tempo=['drift', 'steady', 'rubato']),
    dict(name='folk68', bpm=(40, 70), n=6, meter='6/8', bpb=2, spb=TRIP,
         kits=[0, 40], integer_bpm=0.3, drumless_p=0.5,
         convention='6/8 AMBIGUOUS: bpm = dotted-quarter pulse (2 beats/bar); eighth pulse = 3x; quarter-equivalent = 1.5x',
         main=[{K: 'x.....', TAMB: 'x.xx.x', S: '...x..'},
               {FTOM: 'x..x..', SHK: 'xoxxox'}],
         bass='R-----', chords=['aaaaaa', 'x..x..'],
         progs=dict(bass=[32, 24], chords=GTR_STEEL + GTR_NYLON + [46], lead=[73, 75, 40, 109], pad=STRINGS + [21]),
         hard=['breakdown'], tempo=['drift', 'steady', 'rubato']),
]

STYLE_BY_NAME = {s['name']: s for s in STYLES}


# ---------------------------------------------------------------------------
# Focus sets (generate.py --focus NAME): training songs for cases that fresh seeds showed the
# models had too few of. A variant is a style above with some fields replaced; `family` keeps the
# base style's name for the generator's per-style choices. The default corpus never draws from
# them, so a seed's songs stay what they were.
# ---------------------------------------------------------------------------

def variant(base, name, n, **fields):
    st = dict(STYLE_BY_NAME[base])
    st.update(fields, name=name, n=n, family=base)
    st.pop('extreme', None)     # only the variant's own tempo range
    return st


SIXTEENTHS = 'xxxxxxxxxxxxxxxx'
EIGHTHS = 'x.x.x.x.x.x.x.x.'

FOCUS = {
    # The octave of slow songs with a fast surface (docs/benchmark.md, "Why the 85–100 songs read
    # double" and "Songs for the case"): 80-100 BPM songs with sixteenth hats, shakers or arpeggios and
    # little harmonic movement were read at twice their tempo, and polkas below 100 on their
    # off-beat chords; the training seeds held 17 such songs. Beside them, fast songs (160-200)
    # whose eighth notes make the same surface at the slow level, so that the fit learns where the
    # backbeat and the harmony fall rather than "a fast surface is slow". In the octave fit they
    # traded octaves on fresh seeds, and no model is fitted on them.
    'octave': [
        variant('hiphop', 'hiphop16', 30, bpm=(78, 100), swing_p=0.25,
                main=[{K: 'x.......x.x.....', S: '....x.......x...', CH: SIXTEENTHS},
                      {K: 'x......x..x.....', CLAP: '....x.......x...', CH: 'xxrxxxrxxxrxxxrx'},
                      {K: 'x..x......x..x..', S: '....x.......x...', SHK: 'xoxoxoxoxoxoxoxo', CH: EIGHTHS}],
                chords=['x---------------', 'x-------x-------']),
        variant('samba', 'samba-slow', 20, bpm=(84, 100), chords=['x-------', 'x---x---']),
        variant('reggaeton', 'reggaeton16', 20, bpm=(82, 98),
                main=[{K: 'x...x...x...x...', CLAP: '...x..x....x..x.', SHK: 'oooooooooooooooo'},
                      {K: 'x...x...x...x...', S: '...x..x....x..x.', CH: SIXTEENTHS}],
                chords=['x---------------', 'x--x--x.x--x--x.']),
        variant('synthwave', 'synthwave16', 20, bpm=(78, 100),
                main=[{K: 'x.......x.x.....', S: '....X.......X...', CH: SIXTEENTHS},
                      {K: 'x...x...x...x...', S: '....X.......X...', CH: SIXTEENTHS}],
                chords=['aaaaaaaaaaaaaaaa', 'x---------------']),
        variant('guitar', 'guitar16', 15, bpm=(66, 100), chords=['aaaaaaaaaaaaaaaa']),
        variant('piano', 'piano16', 15, bpm=(60, 100), chords=['aaaaaaaaaaaaaaaa', '.aaa.aaa.aaa.aaa']),
        variant('polka', 'polka-slow', 20, bpm=(88, 104)),
        variant('afrobeat', 'afrobeat-slow', 10, bpm=(92, 106)),
        variant('cardio', 'cardio8', 20, bpm=(160, 190),
                main=[{K: 'x...x...x...x...', S: '....x.......x...', CH: EIGHTHS},
                      {K: 'x...x...x...x...', CLAP: '....x.......x...', OH: '..x...x...x...x.'}],
                chords=['x---------------', 'x-------x-------']),
        variant('dnb', 'dnb8', 15, bpm=(165, 185)),
        variant('punk', 'punk8', 15, bpm=(160, 200)),
        variant('rock', 'rock-fast', 20, bpm=(160, 195), hard=['half', 'breakdown'], swing_p=0.0),
        variant('synthwave', 'synthwave-fast', 20, bpm=(160, 190),
                main=[{K: 'x...x...x...x...', S: '....X.......X...', CH: EIGHTHS},
                      {K: 'x.......x.x.....', S: '....X.......X...', CH: EIGHTHS}],
                chords=['a.a.a.a.a.a.a.a.', 'x---------------'], hard=['breakdown']),
    ],
    # Songs whose beat lies at 40-56 BPM, around the bottom of the analysed range (TempoRanges.analysed
    # starts at 50): 6/8 folk at its dotted quarter, ballads, piano, gospel's 12/8 and slow jams. The
    # default corpora hold about six a seed below 50. Generated (--count 110 --seed 71) to fit the
    # octave and triple models on pairs whose slower level reaches 40; that refit lost right tempi
    # on every set, and no model is fitted on them (docs/tempo.md, "The refit it was left for").
    'slow': [
        variant('folk68', 'folk68-slow', 40, bpm=(40, 52)),
        variant('ballad', 'ballad-slow', 20, bpm=(42, 52)),
        variant('piano', 'piano-slow', 20, bpm=(42, 52)),
        variant('gospel', 'gospel-slow', 15, bpm=(44, 54)),
        variant('slowjam', 'slowjam-slow', 15, bpm=(46, 56)),
    ],
}

FOCUS_BY_NAME = {s['name']: s for styles in FOCUS.values() for s in styles}


def style_named(name):
    """A style of the default table or of a focus set."""
    return STYLE_BY_NAME.get(name) or FOCUS_BY_NAME[name]


def family(style):
    """The default style a focus variant was made from (its own name for a default style)."""
    return style.get('family', style['name'])


def pattern_steps(style):
    return style['bpb'] * style['spb']


def validate():
    """Check that every pattern has one character per grid step."""
    for st in STYLES + list(FOCUS_BY_NAME.values()):
        n = pattern_steps(st)
        groups = st['main'] + st.get('half', []) + st.get('double', [])
        for g in groups:
            for note, pat in g.items():
                assert len(pat) == n, (st['name'], note, pat)
        if st['bass'] != 'walk':
            assert len(st['bass']) == n, (st['name'], 'bass')
        for c in st['chords']:
            assert len(c) == n, (st['name'], 'chords', c)


validate()
