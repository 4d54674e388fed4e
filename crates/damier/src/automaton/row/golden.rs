//! Golden trajectories of model 3: steps, moves, a hash of the whole state (cell words,
//! counters, generator) after fixed stretches, and a hash of the final placement, for several
//! seeds at n = 8, 16, 64 and 256 and for the other rules of the design family. The records
//! of the first kept rule ([`Rule::model3_v1`]) and its family were recorded from the
//! byte-layer step loop before any optimisation of it; those of the rule since issue 40
//! ([`Rule::model3`]) and of the patience and rest designs from the bit-sliced loop that
//! replays the first ones. A faster loop must replay every trajectory bit for bit, so that a
//! run's result for a given random seed never depends on the build or the thread count.
//!
//! After a deliberate change of the dynamics only, the failing test's message is the new
//! table to paste into `golden()`.

use rand_xoshiro::rand_core::Rng;

use super::*;

/// FNV-1a 64 over the cell words (row-major), steps, moves and four outputs of a copy of the
/// generator.
fn state_hash(b: &RowBoard) -> u64 {
    let mut h = crate::util::Fnv1a::new();
    let n = b.n();
    for i in 0..n * n {
        h.write(&b.word(i % n, i / n).to_le_bytes());
    }
    h.write(&b.steps().to_le_bytes());
    h.write(&b.moves().to_le_bytes());
    let mut g = b.generator().clone();
    for _ in 0..4 {
        h.write(&g.next_u64().to_le_bytes());
    }
    h.finish()
}

/// FNV-1a 64 of the queens' columns.
fn placement_hash(b: &RowBoard) -> u64 {
    let mut h = crate::util::Fnv1a::new();
    for &x in b.columns() {
        h.write(&x.to_le_bytes());
    }
    h.finish()
}

/// One golden run: rule, n, seed, then `chunks` calls of `run_steps(chunk)` (or of `step()`
/// `chunk` times when `single`).
struct Case {
    rule: Rule,
    n: usize,
    seed: u64,
    chunk: u64,
    chunks: usize,
    single: bool,
}

fn case(rule: Rule, n: usize, seed: u64, chunk: u64, chunks: usize) -> Case {
    Case { rule, n, seed, chunk, chunks, single: false }
}

/// Per chunk: steps, moves, state hash; then solved, and the placement hash.
type Record = (Vec<(u64, u64, u64)>, bool, u64);

fn play(c: &Case) -> Record {
    let mut b = RowBoard::from_seed(c.rule, c.n, c.seed);
    let mut marks = vec![(b.steps(), b.moves(), state_hash(&b))];
    for _ in 0..c.chunks {
        if c.single {
            for _ in 0..c.chunk {
                b.step();
            }
        } else {
            b.run_steps(c.chunk);
        }
        marks.push((b.steps(), b.moves(), state_hash(&b)));
    }
    (marks, b.is_solution(), placement_hash(&b))
}

fn cases() -> Vec<Case> {
    // Model 3's first kept rule (the default until issue 40), recorded from the byte-layer loop.
    let m3 = Rule::model3_v1(0.01);
    let mut v = Vec::new();
    // The product's rule, run to its first solution (run_steps stops there).
    for (n, seeds, chunk) in
        [(8, 1..=4, 1 << 20), (16, 1..=3, 1 << 20), (64, 1..=3, 1 << 20), (256, 1..=2, 5_000)]
    {
        for seed in seeds {
            v.push(case(m3, n, seed, chunk, if n == 256 { 10 } else { 2 }));
        }
    }
    // A different ε, and the one-step entry point.
    v.push(case(Rule::model3_v1(0.05), 16, 5, 1 << 20, 2));
    v.push(Case { single: true, ..case(m3, 32, 6, 700, 5) });
    // The other rules of the family (docs/automaton.md's designs), over fixed stretches.
    let designs = [
        Rule { cap: 1, ..m3 },
        Rule { wave: false, ..m3 },
        Rule { hide_walkers: false, activity: 0.1, south_activity: 0.1, ..m3 },
        Rule { hide_walkers: false, wave: false, activity: 0.5, south_activity: 0.5, plateau: 0.5, ..m3 },
        Rule { activity: 0.0, south_activity: 0.0, ..m3 },
        Rule { activity: 1.0, south_activity: 1.0, plateau: 1.0, eps: 1.0, ..m3 },
    ];
    for (i, rule) in designs.into_iter().enumerate() {
        v.push(case(rule, 24 + i, 10 + i as u64, 400, 3));
    }
    // The random-cell schedule, and the corners of the board.
    v.push(case(Rule { schedule: Schedule::RandomCell, ..m3 }, 12, 3, 200_000, 3));
    v.push(case(Rule { schedule: Schedule::RandomCell, hide_walkers: false, ..m3 }, 9, 4, 200_000, 2));
    for n in [1, 2, 3, 63, 64, 65, 127, 129] {
        v.push(case(m3, n, 20 + n as u64, 300, 2));
    }
    // Model 3's rule since issue 40 (rarer southern starts), run to its first solution, then
    // the rules with patience or rest counts (docs/automaton.md), over fixed stretches.
    let m4 = Rule::model3(0.01);
    for (n, seeds, chunk) in
        [(8, 1..=4, 1 << 20), (16, 1..=3, 1 << 20), (64, 1..=3, 1 << 20), (256, 1..=2, 5_000)]
    {
        for seed in seeds {
            v.push(case(m4, n, seed, chunk, if n == 256 { 10 } else { 2 }));
        }
    }
    let g1 = Rule {
        south_activity: 0.01,
        plateau: 0.01,
        patience: 15,
        patience_rate: 0.01,
        patience_keeps: true,
        ..m4
    };
    let patient = [
        g1,
        Rule { patience_keeps: false, ..g1 },
        Rule { rest: 15, rest_rate: 0.05, ..g1 },
        Rule { patience: 4, patience_rate: 0.5, rest: 2, rest_rate: 0.5, plateau: 0.5, ..m4 },
    ];
    for (i, rule) in patient.into_iter().enumerate() {
        v.push(case(rule, 40 + i, 30 + i as u64, 400, 3));
    }
    v.push(case(Rule { schedule: Schedule::RandomCell, ..g1 }, 10, 6, 200_000, 2));
    v
}

/// The records of [`cases`], in order: those of [`Rule::model3_v1`] and its family recorded
/// from the byte-layer loop, the rest (from the first [`Rule::model3`] case on) from the
/// bit-sliced loop.
#[rustfmt::skip]
fn golden() -> Vec<Record> {
    vec![
        (vec![(0, 0, 5380606934960876843), (230, 12, 12209642046237748071), (230, 12, 12209642046237748071)], true, 12659464411538365317),
        (vec![(0, 0, 6813532727648678672), (15586, 387, 10729734801881296531), (15586, 387, 10729734801881296531)], true, 3246117628064241221),
        (vec![(0, 0, 4348800471034868507), (8887, 169, 5944533257143314944), (8887, 169, 5944533257143314944)], true, 13675528065028454469),
        (vec![(0, 0, 11416958039785800563), (5170, 105, 1094985799006942497), (5170, 105, 1094985799006942497)], true, 138531176803813381),
        (vec![(0, 0, 7365691275031761989), (5045, 339, 5224506634521852771), (5045, 339, 5224506634521852771)], true, 9444026733561668597),
        (vec![(0, 0, 7612218590312700172), (28173, 1468, 3220261142374139433), (28173, 1468, 3220261142374139433)], true, 16572387804551262325),
        (vec![(0, 0, 3156965995683373693), (320, 151, 16330741483322341026), (320, 151, 16330741483322341026)], true, 3352789683484098341),
        (vec![(0, 0, 1478623913572228040), (1114, 2027, 11077641396697562294), (1114, 2027, 11077641396697562294)], true, 53929124212829381),
        (vec![(0, 0, 13061516370424514755), (1839, 1674, 3469933074155819367), (1839, 1674, 3469933074155819367)], true, 3474064531685648293),
        (vec![(0, 0, 16468109127638812338), (3459, 2627, 12467102911525963152), (3459, 2627, 12467102911525963152)], true, 8071281868664306773),
        (vec![(0, 0, 16100828673740982518), (5000, 70539, 6640196656437096916), (10000, 71342, 2701317802464647997), (14110, 71725, 4744606962814051284), (14110, 71725, 4744606962814051284), (14110, 71725, 4744606962814051284), (14110, 71725, 4744606962814051284), (14110, 71725, 4744606962814051284), (14110, 71725, 4744606962814051284), (14110, 71725, 4744606962814051284), (14110, 71725, 4744606962814051284)], true, 4936007512032947637),
        (vec![(0, 0, 2041001846296694655), (5000, 69168, 14067214221178782688), (5518, 69361, 8001636986265588876), (5518, 69361, 8001636986265588876), (5518, 69361, 8001636986265588876), (5518, 69361, 8001636986265588876), (5518, 69361, 8001636986265588876), (5518, 69361, 8001636986265588876), (5518, 69361, 8001636986265588876), (5518, 69361, 8001636986265588876), (5518, 69361, 8001636986265588876)], true, 14388908126966181157),
        (vec![(0, 0, 2122867164872831390), (898, 217, 9481752826058362012), (898, 217, 9481752826058362012)], true, 7126062998580576261),
        (vec![(0, 0, 11911727701578303645), (700, 522, 16436935416695621212), (1400, 602, 17152235413309603706), (2100, 743, 12343477402614189786), (2800, 860, 11900855893831410518), (3500, 955, 6539737655208182454)], false, 2733924642522593638),
        (vec![(0, 0, 6356248401236244269), (400, 341, 2111469803841291855), (800, 376, 8610115106986868333), (1200, 406, 10907041732755472974)], false, 6012315637198672904),
        (vec![(0, 0, 4366212714770419591), (400, 39, 5023989273537200373), (800, 56, 6053575033083998734), (1200, 69, 2633332693941956031)], false, 17392398295468006076),
        (vec![(0, 0, 13365323621097477321), (400, 804, 12021149913100408011), (800, 1691, 15508866131996014723), (1200, 2531, 14016131673885012655)], false, 3651387427699011909),
        (vec![(0, 0, 12774281707708445950), (400, 1807, 4747107932628271481), (800, 3508, 5176162533372900150), (1200, 4748, 1715689087645732578)], false, 8128968144807496385),
        (vec![(0, 0, 7670872637197967882), (400, 0, 664762787267177413), (800, 0, 3318489919669311593), (1200, 0, 7635408938358787282)], false, 2591031307840356569),
        (vec![(0, 0, 7498671820257302368), (400, 10795, 1432293960940527109), (800, 21708, 3559874920776543259), (1200, 32670, 16662800281247680941)], false, 341008874760952361),
        (vec![(0, 0, 13584859250835033777), (21381, 26, 11656574063095903662), (21381, 26, 11656574063095903662), (21381, 26, 11656574063095903662)], true, 15193296409251554549),
        (vec![(0, 0, 14703605704375866112), (26870, 116, 11432802974951674254), (26870, 116, 11432802974951674254)], true, 6575159974083699069),
        (vec![(0, 0, 8163709056460173782), (0, 0, 8163709056460173782), (0, 0, 8163709056460173782)], true, 5558979605539197941),
        (vec![(0, 0, 745991624321637239), (300, 4, 2698315837622896774), (600, 11, 12535682248059158389)], false, 9929646806074584996),
        (vec![(0, 0, 10166880203671865547), (300, 3, 10692504073780007557), (600, 3, 1359714503205186566)], false, 11320285072795418662),
        (vec![(0, 0, 4061688035448860615), (300, 1860, 18256629581210390744), (600, 1905, 12539376269775466230)], false, 7211389025940899161),
        (vec![(0, 0, 12598181175156718748), (300, 1642, 13285037147438804250), (600, 1823, 6707624673683271663)], false, 11192056980117963583),
        (vec![(0, 0, 5119833197501039024), (300, 1513, 108280831597193725), (600, 1659, 15430107898271229057)], false, 13008911509536108815),
        (vec![(0, 0, 12253560619528027131), (300, 4720, 18134097588178108730), (600, 8018, 7212403499755195883)], false, 12111433104384460371),
        (vec![(0, 0, 16322016668548132618), (300, 4910, 17110906233542874103), (600, 7988, 11376111175748974455)], false, 11562977053336090382),
        (vec![(0, 0, 5380606934960876843), (608, 14, 7069994054951251094), (608, 14, 7069994054951251094)], true, 12659464411538365317),
        (vec![(0, 0, 6813532727648678672), (48703, 1023, 13668898428203456659), (48703, 1023, 13668898428203456659)], true, 13371065082677797893),
        (vec![(0, 0, 4348800471034868507), (8800, 279, 14407736202157803413), (8800, 279, 14407736202157803413)], true, 12657951756315422661),
        (vec![(0, 0, 11416958039785800563), (3018, 85, 11412600358043835632), (3018, 85, 11412600358043835632)], true, 13371065082677797893),
        (vec![(0, 0, 7365691275031761989), (2697, 113, 18430202388888670062), (2697, 113, 18430202388888670062)], true, 9734112010366816789),
        (vec![(0, 0, 7612218590312700172), (229, 236, 16376111271030100727), (229, 236, 16376111271030100727)], true, 447690996655155509),
        (vec![(0, 0, 3156965995683373693), (36634, 1159, 4442351012907025649), (36634, 1159, 4442351012907025649)], true, 9606584265287919461),
        (vec![(0, 0, 1478623913572228040), (8170, 2629, 9827562081459615150), (8170, 2629, 9827562081459615150)], true, 3517325387231687301),
        (vec![(0, 0, 13061516370424514755), (6323, 1918, 11547874303953109308), (6323, 1918, 11547874303953109308)], true, 4831730209232749317),
        (vec![(0, 0, 16468109127638812338), (8275, 2133, 8407219410567201937), (8275, 2133, 8407219410567201937)], true, 5688080830095217509),
        (vec![(0, 0, 16100828673740982518), (5000, 24538, 10426124282839271481), (5063, 24617, 6377113488863104330), (5063, 24617, 6377113488863104330), (5063, 24617, 6377113488863104330), (5063, 24617, 6377113488863104330), (5063, 24617, 6377113488863104330), (5063, 24617, 6377113488863104330), (5063, 24617, 6377113488863104330), (5063, 24617, 6377113488863104330), (5063, 24617, 6377113488863104330)], true, 10872904262098028469),
        (vec![(0, 0, 2041001846296694655), (5000, 19297, 17481954855214552130), (8878, 19637, 7108294801977890442), (8878, 19637, 7108294801977890442), (8878, 19637, 7108294801977890442), (8878, 19637, 7108294801977890442), (8878, 19637, 7108294801977890442), (8878, 19637, 7108294801977890442), (8878, 19637, 7108294801977890442), (8878, 19637, 7108294801977890442), (8878, 19637, 7108294801977890442)], true, 8869519198459881605),
        (vec![(0, 0, 13151327683103910336), (400, 489, 11030638959637446616), (800, 513, 9145014456746024323), (1200, 521, 16579768346829223404)], false, 4738966088494626525),
        (vec![(0, 0, 13744079908228228526), (400, 468, 5408767419950446157), (800, 502, 7190327351414119589), (1200, 533, 7208494379006633718)], false, 2632877604445274726),
        (vec![(0, 0, 11534156133903918454), (400, 375, 6779238280380761263), (800, 378, 16104096372249465999), (1200, 384, 12167951908204960086)], false, 6485165413460395593),
        (vec![(0, 0, 5391424884207842672), (400, 758, 11632573896983553497), (800, 1084, 3313549996907265066), (1200, 1362, 7597005676238209264)], false, 16696075092955959499),
        (vec![(0, 0, 12921339498432797468), (200000, 47, 12411518568368706240), (400000, 59, 11705878423695763765)], false, 12078456857754110004),
    ]
}

#[test]
fn trajectories_match_the_golden_records() {
    let cases = cases();
    let golden = golden();
    let played: Vec<Record> = cases.iter().map(play).collect();
    let table: String = played
        .iter()
        .map(|(marks, solved, placement)| format!("        (vec!{marks:?}, {solved}, {placement}),\n"))
        .collect();
    assert_eq!(cases.len(), golden.len(), "one record per case; the table of these cases:\n{table}");
    for ((c, want), got) in cases.iter().zip(&golden).zip(&played) {
        assert_eq!(
            got, want,
            "n {} seed {} rule {:?}: the trajectory changed; the table of every case now:\n{table}",
            c.n, c.seed, c.rule
        );
    }
    // Both kept rules solve every case they ran to the end.
    for (c, (_, solved, _)) in cases.iter().zip(&played) {
        if c.rule.schedule == Schedule::Synchronous && c.chunk >= 5_000 && c.rule.hide_walkers {
            assert!(solved, "n {} seed {} rule {:?}", c.n, c.seed, c.rule);
        }
    }
}
