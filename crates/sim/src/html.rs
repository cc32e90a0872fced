//! `madang sim … --report FILE.html`: a run's report as one self-contained HTML page — charts
//! as inline SVG, styles inline, no script and nothing fetched from elsewhere, readable on a
//! phone, in Korean or English (`docs/lab.md`, "The HTML report").

use std::fmt::Write as _;

use crate::compare::{ChiSquare, Comparison};
use crate::{Figure, Quality, Rate, SimReport};

/// The language of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// 한국어.
    Ko,
    /// English.
    En,
}

impl Lang {
    /// `ko` or `en`.
    pub fn parse(text: &str) -> Option<Lang> {
        match text {
            "ko" => Some(Lang::Ko),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    fn code(self) -> &'static str {
        match self {
            Lang::Ko => "ko",
            Lang::En => "en",
        }
    }

    /// The name of turn-order position `i` (0 first).
    fn position(self, i: usize) -> Option<&'static str> {
        let names = match self {
            Lang::Ko => ["첫째", "둘째", "셋째", "넷째", "다섯째", "여섯째", "일곱째", "여덟째"],
            Lang::En => ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"],
        };
        names.get(i).copied()
    }

    /// The text of `key` in this language.
    fn t(self, key: &str) -> &'static str {
        let (ko, en) = match key {
            "title" => ("시뮬레이션 보고서", "Simulation report"),
            "games" => ("판", "games"),
            "run" => ("실행", "The run"),
            "command" => ("다시 만드는 명령", "Command to regenerate it"),
            "version" => ("버전", "Version"),
            "seed" => ("시드", "Seed"),
            "bots" => ("봇(자리 순)", "Bots (seat order)"),
            "rotated" => ("판마다 자리를 돌림", "rotated across seats game by game"),
            "rules" => ("규칙", "Rules"),
            "by_seat" => ("자리별 승률", "Win rate by seat"),
            "by_position" => ("차례 순서별 승률", "Win rate by turn-order position"),
            "by_bot" => ("봇별 승률", "Win rate by bot"),
            "bars" => (
                "막대는 승률, 가는 선은 95 % 신뢰구간(윌슨), 세로 점선은 공평한 몫(1/편 수: 자리 또는 팀)입니다.",
                "Bars are win rates, thin lines their 95 % intervals (Wilson), the dotted line a fair share (1/sides: seats, or teams).",
            ),
            "edge" => ("먼저 두는 쪽의 이점", "First-mover edge"),
            "edge_text" => (
                "먼저 둔 쪽의 승률에서 공평한 몫을 뺀 값(95 % 구간):",
                "The first mover's win rate minus a fair share (95 % interval):",
            ),
            "draws" => ("무승부 / 결과 없음", "Draws / no result"),
            "length" => ("게임 길이", "Game length"),
            "length_unit" => ("굴림·던지기 수", "rolls or throws"),
            "length_summary" => (
                "평균 {mean}, 표준편차 {sd}, 최소 {min}, 10 % {p10}, 중앙값 {median}, 90 % {p90}, 최대 {max}",
                "mean {mean}, sd {sd}, min {min}, 10th percentile {p10}, median {median}, 90th percentile {p90}, max {max}",
            ),
            "figures" => ("게임의 수치", "The game's figures"),
            "figures_text" => (
                "숫자는 한 판 평균, 글은 나온 판의 비율입니다.",
                "Numbers are means per game; text values the share of games they occurred in.",
            ),
            "review" => ("풀이표와 비교한 수당 손실", "Loss per move against the solved table"),
            "review_row" => (
                "{bot}: {n}수, 평균 손실 {loss}%p, 최선 {best} %, 큰 실수 {blunders} %",
                "{bot}: {n} decisions, mean loss {loss} points, best {best} %, blunders {blunders} %",
            ),
            "quality" => ("게임의 질", "Game quality"),
            "quality_text" => (
                "Ludii의 지표를 따르되, UCT 평가 대신 이기는 확률로 계산합니다. 각 지표의 식:",
                "After Ludii's metrics, computed from winning chances instead of UCT evaluations. Each metric and its formula:",
            ),
            "balance" => ("균형", "Balance"),
            "balance_def" => (
                "1 − max<sub>i,j</sub> |w<sub>i</sub> − w<sub>j</sub>|, w<sub>i</sub> = 차례 순서 i의 승률 (1: 완전한 균형)",
                "1 − max<sub>i,j</sub> |w<sub>i</sub> − w<sub>j</sub>|, w<sub>i</sub> = the win rate of turn-order position i (1: perfectly balanced)",
            ),
            "drawishness" => ("무승부 경향", "Drawishness"),
            "drawishness_def" => ("무승부 수 ÷ 판 수", "draws ÷ games"),
            "branching" => ("평균 분기 수", "Mean branching factor"),
            "branching_def" => (
                "합법적인 수의 합 ÷ 누군가 두어야 하는 자리 수 (강제된 수 포함, 모든 판)",
                "Σ legal actions ÷ nodes where a seat acts (forced moves included, every game)",
            ),
            "decisiveness" => ("결정 시점", "Decisiveness"),
            "decisiveness_def" => (
                "승자가 가린 판마다 k ÷ n의 평균: n = 그 판의 행동 수, k = 승자의 이기는 확률이 처음으로 T를 넘은 위치, T = 다른 쪽이 한 번이라도 가졌던 가장 높은 확률 (낮을수록 일찍 결정됨)",
                "the mean over decided games of k ÷ n: n = the game's actions, k = the first position where the winner's chance exceeds T, T = the highest chance any other side ever had (lower: decided earlier)",
            ),
            "lead_changes" => ("선두 바뀜", "Lead changes"),
            "lead_changes_def" => (
                "Lead(i) ≠ Lead(i−1)인 위치 i의 수, Lead(i) = 위치 i에서 이기는 확률이 가장 높은 쪽들; 한 판 평균 (괄호: ÷ n의 평균)",
                "the number of positions i with Lead(i) ≠ Lead(i−1), Lead(i) = the sides with the highest chance at position i; mean per game (in brackets: the mean of ÷ n)",
            ),
            "behind" => ("승자가 뒤진 위치", "Winner behind"),
            "behind_def" => (
                "승자가 선두에 없던 위치의 비율 (승자가 가린 판의 모든 위치 중)",
                "the share of positions of decided games where the eventual winner was not among the leaders",
            ),
            "drama" => ("극적임", "Drama"),
            "drama_def" => (
                "그 위치들에서 (선두의 확률 − 승자의 확률)의 평균, %p",
                "the mean over those positions of (the leader's chance − the winner's chance), percentage points",
            ),
            "not_reviewed" => (
                "운과 실력, 결정 시점, 선두 바뀜, 극적임은 판을 복기해야 알 수 있습니다: <code>--analyse N</code>으로 처음 N판을 복기하세요.",
                "Luck against skill, decisiveness, lead changes and drama need reviewed games: add <code>--analyse N</code> to review the run's first N games.",
            ),
            "luck" => ("운과 실력", "Luck against skill"),
            "luck_text" => (
                "처음 {n}판을 복기했습니다 ({method}). 판마다 각 쪽의 R = 결과 − 처음의 이기는 확률은 L(운: 주사위가 한 일)과 C = 얻은 것 − 잃은 것(선택이 한 일)의 합입니다(R = L + C). 주사위의 몫 = Cov(R, L) ÷ Var(R), 선택의 몫 = Cov(R, C) ÷ Var(R)이고 둘의 합은 1입니다.",
                "The run's first {n} games were reviewed ({method}). For each side of each game, R = result − initial winning chance is the sum of L (luck: what the dice did) and C = gains − loss (what the choices did): R = L + C. The dice's share = Cov(R, L) ÷ Var(R), the choices' share = Cov(R, C) ÷ Var(R); the two add up to 1.",
            ),
            "dice" => ("주사위", "dice"),
            "choices" => ("선택", "choices"),
            "luck_row" => (
                "한 쪽·한 판 평균: |운| {luck}%p, 잃은 것 {loss}%p",
                "Per side and game: mean |luck| {luck} points, mean loss {loss} points",
            ),
            "compare_title" => ("규칙 비교", "Rule sets compared"),
            "rule_sets" => ("규칙 묶음 (같은 시드로 플레이)", "Rule sets (played on the same seeds)"),
            "tests" => ("차이의 검정 (규칙 [1]과 비교)", "Tests of the differences (against rule set [1])"),
            "tests_text" => (
                "먼저 둔 쪽의 승률은 두 비율의 z 검정, 이긴 쪽의 분포(차례 순서·자리·봇별, 승자 없음 포함)는 동질성 χ² 검정입니다. 두 실행을 독립 표본으로 다루므로(같은 시드라 실제로는 양의 상관이 있어) p 값은 약간 보수적입니다. 팀 경기처럼 한 판의 승리가 여러 자리에 세어지면 χ² 검정은 하지 않습니다.",
                "The first mover's win rate: a two-proportion z-test; the winner's turn-order position, seat and bot (with no winner as a column): χ² tests of homogeneity. The runs are treated as independent samples (on the same seeds they are in fact positively correlated), so the p-values are slightly conservative. Where a win counts for several seats (teams) there is no χ² test.",
            ),
            "first_mover_test" => (
                "먼저 둔 쪽의 승률 {a} → {b}: 차이 {d}%p (95 % 구간 {lo} … {hi}), z = {z}, {p}",
                "First mover's win rate {a} → {b}: difference {d} points (95 % interval {lo} … {hi}), z = {z}, {p}",
            ),
            "chi_row" => ("{what}: χ² = {x}, 자유도 {df}, {p}", "{what}: χ² = {x}, df {df}, {p}"),
            "winner_position" => ("이긴 쪽의 차례 순서", "Winner's turn-order position"),
            "winner_seat" => ("이긴 자리", "Winner's seat"),
            "winner_bot" => ("이긴 봇", "Winner's bot"),
            "mean" => ("평균", "mean"),
            "sd" => ("표준편차", "sd"),
            "median" => ("중앙값", "median"),
            "dice_share" => ("주사위의 몫", "Dice's share"),
            "choices_share" => ("선택의 몫", "Choices' share"),
            "timing" => ("시간", "Timing"),
            "timing_row" => {
                ("{seconds}초, 초당 {rate}판, 스레드 {threads}개", "{seconds} s, {rate} games/s on {threads} threads")
            }
            _ => ("", ""),
        };
        match self {
            Lang::Ko => ko,
            Lang::En => en,
        }
    }
}

/// Escapes text for HTML.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Fills `{name}` placeholders.
fn fill(template: &str, values: &[(&str, String)]) -> String {
    values.iter().fold(template.to_owned(), |text, (name, value)| text.replace(&format!("{{{name}}}"), value))
}

/// The command that plays the same run again (the shards of a merged run, played at once).
pub fn command(report: &SimReport) -> String {
    let rules = serde_json::to_string(&report.rules).unwrap_or_else(|_| "{}".to_owned());
    let rules = if rules != "{}" && rules != "null" { format!(" --rules '{rules}'") } else { String::new() };
    command_with(report, &rules)
}

/// The command that plays a comparison again.
pub fn compare_command(comparison: &Comparison) -> String {
    let Some(first) = comparison.reports.first() else { return String::new() };
    let rules: Vec<String> = comparison
        .reports
        .iter()
        .map(|r| format!("'{}'", serde_json::to_string(&r.rules).unwrap_or_else(|_| "{}".to_owned())))
        .collect();
    command_with(first, &format!(" --compare {}", rules.join(" ")))
}

/// `madang sim` with `report`'s game, games, seed, shard, bots and flags, and `rules` (the
/// rules' own arguments, with a leading space).
fn command_with(report: &SimReport, rules: &str) -> String {
    let mut command = format!("madang sim {} --games {} --seed {}", report.game, report.games, report.seed);
    if let Some(shard) = report.shard {
        command = format!(
            "madang sim {} --games {} --seed {} --shard {}/{}",
            report.game, shard.run_games, report.seed, shard.shard.index, shard.shard.of
        );
    }
    let _ = write!(command, " --bots {}", report.bots.join(","));
    if report.rotate_seats {
        command += " --rotate-seats";
    }
    if let Some(players) = report.players {
        let _ = write!(command, " --players {players}");
    }
    command += rules;
    if report.review_decisions {
        command += " --review";
    }
    if report.analyse > 0 {
        let _ = write!(command, " --analyse {}", report.analyse);
    }
    command
}

/// A horizontal bar chart of win rates with their intervals, as inline SVG: one group of bars
/// per name (taken from the first series), one bar per series (rule set), in the series'
/// colours; `fair` draws a dotted line at a fair share (0: none).
fn rate_chart(series: &[&[Rate]], fair: f64) -> String {
    let Some(names) = series.first() else { return String::new() };
    let bar = 16.0;
    let row = bar * series.len() as f64 + 10.0;
    let (width, left, right) = (340.0, 92.0, 290.0);
    let height = row * names.len() as f64 + 8.0;
    let x = |p: f64| left + (right - left) * p.clamp(0.0, 1.0);
    let mut svg = format!(r#"<svg viewBox="0 0 {width} {height}" width="100%" role="img" class="chart">"#);
    if fair > 0.0 {
        let _ = write!(svg, r#"<line x1="{f}" y1="0" x2="{f}" y2="{height}" class="fair"/>"#, f = x(fair));
    }
    for (i, name) in names.iter().enumerate() {
        let top = 4.0 + row * i as f64;
        let _ = write!(
            svg,
            r#"<text x="{tx}" y="{ty}" class="label">{name}</text>"#,
            tx = left - 6.0,
            ty = top + 12.0,
            name = esc(&name.name),
        );
        for (k, rates) in series.iter().enumerate() {
            let Some(r) = rates.get(i) else { continue };
            let y = top + bar * k as f64;
            let _ = write!(
                svg,
                r#"<rect x="{left}" y="{by}" width="{bw}" height="{h}" class="s{class}"/><text x="{vx}" y="{ty}" class="value">{pct:.1}%</text>"#,
                by = y + 2.0,
                bw = x(r.win_rate) - left,
                h = bar - 3.0,
                class = k % 4,
                vx = right + 4.0,
                ty = y + 12.0,
                pct = 100.0 * r.win_rate,
            );
            if r.interval.high > r.interval.low {
                let _ = write!(
                    svg,
                    r#"<line x1="{lo}" y1="{my}" x2="{hi}" y2="{my}" class="ci"/><line x1="{lo}" y1="{t1}" x2="{lo}" y2="{t2}" class="ci"/><line x1="{hi}" y1="{t1}" x2="{hi}" y2="{t2}" class="ci"/>"#,
                    lo = x(r.interval.low),
                    hi = x(r.interval.high),
                    my = y + 8.5,
                    t1 = y + 4.0,
                    t2 = y + 13.0,
                );
            }
        }
    }
    svg + "</svg>"
}

/// A histogram of game lengths (at most 40 bins) as inline SVG.
fn length_chart(report: &SimReport) -> String {
    let lengths = &report.totals.lengths;
    let (Some((&min, _)), Some((&max, _))) = (lengths.iter().next(), lengths.iter().next_back()) else {
        return String::new();
    };
    let span = u64::from(max - min) + 1;
    let bins = span.min(40);
    let size = span.div_ceil(bins);
    let mut counts = vec![0u64; bins as usize];
    for (&l, &c) in lengths {
        counts[(u64::from(l - min) / size) as usize] += c;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let (width, height, bottom) = (340.0, 150.0, 130.0);
    let w = 320.0 / bins as f64;
    let mut svg = format!(r#"<svg viewBox="0 0 {width} {height}" width="100%" role="img" class="chart">"#);
    for (i, c) in counts.iter().enumerate() {
        let h = 120.0 * *c as f64 / top;
        let _ = write!(
            svg,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{bw:.1}" height="{h:.1}" class="bar"><title>{from}-{to}: {c}</title></rect>"#,
            x = 10.0 + w * i as f64,
            y = bottom - h,
            bw = (w - 1.0).max(0.5),
            from = u64::from(min) + size * i as u64,
            to = u64::from(min) + size * (i as u64 + 1) - 1,
        );
    }
    let _ = write!(
        svg,
        r#"<line x1="10" y1="{bottom}" x2="330" y2="{bottom}" class="axis"/><text x="10" y="146" class="value">{min}</text><text x="330" y="146" class="value end">{max}</text></svg>"#
    );
    svg
}

/// Frequencies as a bar chart (share of games), as inline SVG: one bar per series (rule set)
/// for every value any series has.
fn frequency_chart(series: &[&std::collections::BTreeMap<String, f64>]) -> String {
    let mut names: Vec<&String> = series.iter().flat_map(|f| f.keys()).collect();
    names.sort();
    names.dedup();
    let rates: Vec<Vec<Rate>> = series
        .iter()
        .map(|frequencies| {
            names
                .iter()
                .map(|name| {
                    let share = frequencies.get(*name).copied().unwrap_or(0.0);
                    Rate {
                        name: (*name).clone(),
                        games: 0,
                        wins: 0,
                        draws: 0,
                        win_rate: share,
                        interval: crate::Interval { low: share, high: share },
                    }
                })
                .collect()
        })
        .collect();
    let refs: Vec<&[Rate]> = rates.iter().map(Vec::as_slice).collect();
    rate_chart(&refs, 0.0)
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Noto Sans KR','Apple SD Gothic Neo','Malgun Gothic',sans-serif;margin:0 auto;max-width:760px;padding:12px;color:#222;line-height:1.45}h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.6em;border-bottom:1px solid #ddd}code{word-break:break-all;background:#f4f4f4;padding:2px 4px}.chart{max-width:640px;display:block}.bar,.s0{fill:#4a7ab5;color:#4a7ab5}.s1{fill:#d89a3c;color:#d89a3c}.s2{fill:#5a9e6f;color:#5a9e6f}.s3{fill:#9b6bb5;color:#9b6bb5}.ci{stroke:#222;stroke-width:1.5}.fair{stroke:#c44;stroke-dasharray:3 3}.axis{stroke:#888}.label{font-size:11px;text-anchor:end}.value{font-size:11px}.end{text-anchor:end}table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;border-bottom:1px solid #eee}.def{padding-bottom:8px}.note{color:#555;font-size:.9em}";

/// The report as a self-contained HTML page in `lang`.
pub fn html(report: &SimReport, lang: Lang) -> String {
    let t = |key: &str| lang.t(key);
    let fair = fair_share(report);
    let mut page = head(report, t("title"), &command(report), lang);
    let _ = write!(
        page,
        "<tr><th>{}</th><td><code>{}</code></td></tr></table>",
        t("rules"),
        esc(&serde_json::to_string(&report.rules).unwrap_or_default()),
    );
    let positions: Vec<Rate> = report
        .by_position
        .iter()
        .enumerate()
        .map(|(i, r)| Rate { name: lang.position(i).unwrap_or(&r.name).to_owned(), ..r.clone() })
        .collect();
    for (key, rates) in [("by_seat", &report.by_seat), ("by_position", &positions), ("by_bot", &report.by_bot)] {
        let _ = write!(page, "<h2>{}</h2>{}", t(key), rate_chart(&[rates], fair));
    }
    let _ = write!(page, r#"<p class="note">{}</p>"#, t("bars"));
    if crate::FirstMoverEdge::of(&report.totals.by_position, report.totals.sides).is_some() {
        let _ = write!(page, "<h2>{}</h2><p>{} {}</p>", t("edge"), t("edge_text"), edge_text(report));
    }
    let _ = write!(page, "<p>{}: {} / {}</p>", t("draws"), report.draws, report.no_result);
    let l = &report.length;
    let _ = write!(
        page,
        "<h2>{} ({})</h2>{}<p>{}</p>",
        t("length"),
        t("length_unit"),
        length_chart(report),
        fill(
            t("length_summary"),
            &[
                ("mean", format!("{:.2}", l.mean)),
                ("sd", format!("{:.2}", l.sd)),
                ("min", l.min.to_string()),
                ("p10", l.p10.to_string()),
                ("median", l.median.to_string()),
                ("p90", l.p90.to_string()),
                ("max", l.max.to_string()),
            ]
        )
    );
    if !report.review.is_empty() {
        let _ = write!(page, "<h2>{}</h2><ul>", t("review"));
        for b in &report.review {
            let row = fill(
                t("review_row"),
                &[
                    ("bot", esc(&b.bot)),
                    ("n", b.decisions.to_string()),
                    ("loss", format!("{:.3}", b.mean_loss)),
                    ("best", format!("{:.1}", 100.0 * b.best)),
                    ("blunders", format!("{:.2}", 100.0 * b.blunders)),
                ],
            );
            let _ = write!(page, "<li>{row}</li>");
        }
        page += "</ul>";
    }
    if !report.figures.is_empty() {
        let _ = write!(page, r#"<h2>{}</h2><p class="note">{}</p><table>"#, t("figures"), t("figures_text"));
        let mut charts = String::new();
        for (path, figure) in &report.figures {
            match figure {
                Figure::Mean { mean } => {
                    let _ = write!(page, "<tr><th>{}</th><td>{mean:.3}</td></tr>", esc(path));
                }
                Figure::Frequencies { frequencies } => {
                    let _ = write!(charts, "<h3>{}</h3>{}", esc(path), frequency_chart(&[frequencies]));
                }
            }
        }
        page += "</table>";
        page += &charts;
    }
    page += &quality_section(&report.quality, lang);
    let tm = &report.timing;
    let _ = write!(
        page,
        r#"<h2>{}</h2><p class="note">{}</p></body></html>"#,
        t("timing"),
        fill(
            t("timing_row"),
            &[
                ("seconds", format!("{:.3}", tm.seconds)),
                ("rate", format!("{:.0}", tm.games_per_second)),
                ("threads", tm.threads.to_string()),
            ]
        )
    );
    page
}

/// The quality metrics' message keys, in the order shown.
const QUALITY_KEYS: [&str; 7] =
    ["balance", "drawishness", "branching", "decisiveness", "lead_changes", "behind", "drama"];

/// The value of the quality metric `key` ("–" where it was not measured).
fn quality_value(q: &Quality, key: &str) -> String {
    let opt = |v: Option<f64>, f: &dyn Fn(f64) -> String| v.map_or_else(|| "–".to_owned(), f);
    let a = q.analysis.as_ref();
    match key {
        "balance" => format!("{:.3}", q.balance),
        "drawishness" => format!("{:.3}", q.drawishness),
        "branching" => opt(q.branching_factor, &|b| format!("{b:.2}")),
        "decisiveness" => opt(a.and_then(|a| a.decisiveness), &|d| format!("{d:.3}")),
        "lead_changes" => {
            a.map_or_else(|| "–".to_owned(), |a| format!("{:.2} ({:.3})", a.lead_changes, a.lead_change_rate))
        }
        "behind" => opt(a.and_then(|a| a.behind_share), &|b| format!("{:.1} %", 100.0 * b)),
        "drama" => opt(a.and_then(|a| a.drama), &|d| format!("{d:.1}%p")),
        _ => String::new(),
    }
}

/// The game-quality metrics and luck against skill, each with its formula.
fn quality_section(q: &Quality, lang: Lang) -> String {
    let t = |key: &str| lang.t(key);
    let mut out = format!(r#"<h2>{}</h2><p class="note">{}</p><table>"#, t("quality"), t("quality_text"));
    for key in QUALITY_KEYS {
        let _ = write!(
            out,
            r#"<tr><th>{}</th><td>{}</td></tr><tr><td colspan="2" class="note def">{}</td></tr>"#,
            t(key),
            quality_value(q, key),
            t(&format!("{key}_def"))
        );
    }
    out += "</table>";
    let Some(a) = &q.analysis else {
        let _ = write!(out, r#"<p class="note">{}</p>"#, t("not_reviewed"));
        return out;
    };
    let _ = write!(
        out,
        "<h2>{}</h2><p>{}</p>",
        t("luck"),
        fill(t("luck_text"), &[("n", a.games.to_string()), ("method", esc(&a.method))])
    );
    if let (Some(dice), Some(choices)) = (a.dice_share, a.choices_share) {
        out += &share_bar(&[(t("dice"), dice), (t("choices"), choices)]);
    }
    let _ = write!(
        out,
        "<p>{}</p>",
        fill(t("luck_row"), &[("luck", format!("{:.1}", a.mean_abs_luck)), ("loss", format!("{:.1}", a.mean_loss))])
    );
    out
}

/// Shares that add up to 1 as one stacked bar, labelled, as inline SVG (a share below 0 or
/// above 1 is drawn clamped and labelled with its value).
fn share_bar(shares: &[(&str, f64)]) -> String {
    let (left, right) = (10.0, 330.0);
    let mut svg = r#"<svg viewBox="0 0 340 48" width="100%" role="img" class="chart">"#.to_owned();
    let mut at = 0.0;
    for (i, (name, share)) in shares.iter().enumerate() {
        let width = share.clamp(0.0, 1.0 - at);
        let x = left + (right - left) * at;
        let w = (right - left) * width;
        let _ = write!(
            svg,
            r#"<rect x="{x:.1}" y="4" width="{w:.1}" height="20" class="s{class}"/><rect x="{lx:.1}" y="32" width="10" height="10" class="s{class}"/><text x="{tx:.1}" y="41" class="value">{name} {pct:.1}%</text>"#,
            class = i % 4,
            lx = left + 160.0 * i as f64,
            tx = left + 160.0 * i as f64 + 14.0,
            name = esc(name),
            pct = 100.0 * share,
        );
        at += width;
    }
    svg + "</svg>"
}

/// A page's start: the document head, the title, the number of games, and the first rows of the
/// run's table (the command, version, seed, bots), left open for more rows.
fn head(report: &SimReport, title: &str, command: &str, lang: Lang) -> String {
    let t = |key: &str| lang.t(key);
    format!(
        r#"<!doctype html><html lang="{code}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>madang — {game} — {title}</title><style>{STYLE}</style></head><body><h1>{game} — {title}</h1><p>{games} {unit}</p><h2>{run}</h2><table><tr><th>{command_label}</th><td><code>{command}</code></td></tr><tr><th>{version_label}</th><td>{version}</td></tr><tr><th>{seed_label}</th><td>{seed}</td></tr><tr><th>{bots_label}</th><td>{bots}{rotated}</td></tr>"#,
        code = lang.code(),
        game = esc(&report.game),
        games = report.games,
        unit = t("games"),
        run = t("run"),
        command_label = t("command"),
        command = esc(command),
        version_label = t("version"),
        version = esc(&report.version),
        seed_label = t("seed"),
        seed = report.seed,
        bots_label = t("bots"),
        bots = esc(&report.bots.join(", ")),
        rotated = if report.rotate_seats { format!(" ({})", t("rotated")) } else { String::new() },
    )
}

/// A fair share of the wins: 1/sides (a seat wins when its side wins, so in a team game every
/// seat's fair share is its team's).
fn fair_share(report: &SimReport) -> f64 {
    let sides = if report.totals.sides == 0 { report.by_seat.len() } else { report.totals.sides };
    1.0 / sides.max(1) as f64
}

/// The first mover's win rate minus a fair share, with its 95 % interval, in points (empty when
/// no game was played).
fn edge_text(report: &SimReport) -> String {
    crate::FirstMoverEdge::of(&report.totals.by_position, report.totals.sides).map_or_else(String::new, |first| {
        format!(
            "<strong>{:+.2}%p</strong> ({:+.2} … {:+.2})",
            100.0 * (first.win_rate - first.fair),
            100.0 * (first.win_interval.low - first.fair),
            100.0 * (first.win_interval.high - first.fair),
        )
    })
}

/// A table with one column per rule set: `rows` are (label, one cell per rule set).
fn columns_table(labels: usize, rows: &[(String, Vec<String>)]) -> String {
    let mut out = "<table><tr><th></th>".to_owned();
    for k in 0..labels {
        let _ = write!(out, r#"<th><span class="key s{}">■</span> [{}]</th>"#, k % 4, k + 1);
    }
    out += "</tr>";
    for (label, cells) in rows {
        let _ = write!(out, "<tr><th>{label}</th>");
        for cell in cells {
            let _ = write!(out, "<td>{cell}</td>");
        }
        out += "</tr>";
    }
    out + "</table>"
}

/// A p-value for people: `p = 0.0123` to four decimals, or `p < 0.0001`.
pub fn p_text(p: f64) -> String {
    if p < 1e-4 { "p < 0.0001".to_owned() } else { format!("p = {p:.4}") }
}

/// A comparison of rule sets (`madang sim --compare`) as one self-contained HTML page in `lang`:
/// every figure of [`html`] with one column (or bar) per rule set, and the tests.
pub fn compare_html(comparison: &Comparison, lang: Lang) -> String {
    let t = |key: &str| lang.t(key);
    let reports = &comparison.reports;
    let Some(first) = reports.first() else { return String::new() };
    let n = reports.len();
    let fair = fair_share(first);
    let mut page = head(first, t("compare_title"), &compare_command(comparison), lang);
    let _ = write!(page, "</table><h3>{}</h3><ol>", t("rule_sets"));
    for (k, r) in reports.iter().enumerate() {
        let _ = write!(
            page,
            r#"<li><span class="key s{}">■</span> <code>{}</code></li>"#,
            k % 4,
            esc(&serde_json::to_string(&r.rules).unwrap_or_default())
        );
    }
    page += "</ol>";
    let positions: Vec<Vec<Rate>> = reports
        .iter()
        .map(|r| {
            r.by_position
                .iter()
                .enumerate()
                .map(|(i, p)| Rate { name: lang.position(i).unwrap_or(&p.name).to_owned(), ..p.clone() })
                .collect()
        })
        .collect();
    let seats: Vec<&[Rate]> = reports.iter().map(|r| r.by_seat.as_slice()).collect();
    let positions: Vec<&[Rate]> = positions.iter().map(Vec::as_slice).collect();
    let bots: Vec<&[Rate]> = reports.iter().map(|r| r.by_bot.as_slice()).collect();
    for (key, series) in [("by_seat", &seats), ("by_position", &positions), ("by_bot", &bots)] {
        let _ = write!(page, "<h2>{}</h2>{}", t(key), rate_chart(series, fair));
    }
    let _ = write!(page, r#"<p class="note">{}</p>"#, t("bars"));
    let mut rows = vec![
        (t("edge").to_owned(), reports.iter().map(edge_text).collect()),
        (t("draws").to_owned(), reports.iter().map(|r| format!("{} / {}", r.draws, r.no_result)).collect()),
    ];
    let length = |name: &str, f: &dyn Fn(&SimReport) -> String| {
        (format!("{} — {name}", t("length")), reports.iter().map(f).collect::<Vec<String>>())
    };
    rows.push(length(t("mean"), &|r| format!("{:.2}", r.length.mean)));
    rows.push(length(t("sd"), &|r| format!("{:.2}", r.length.sd)));
    rows.push(length(t("median"), &|r| r.length.median.to_string()));
    rows.push(length("10 % – 90 %", &|r| format!("{} – {}", r.length.p10, r.length.p90)));
    let _ = write!(page, "<h2>{}</h2>{}", t("edge"), columns_table(n, &rows));
    page += &tests_section(comparison, lang);
    let _ = write!(page, "<h2>{} ({})</h2>", t("length"), t("length_unit"));
    for (k, r) in reports.iter().enumerate() {
        let _ = write!(page, r#"<h3><span class="key s{}">■</span> [{}]</h3>{}"#, k % 4, k + 1, length_chart(r));
    }
    page += &figures_columns(reports, lang);
    let mut quality: Vec<(String, Vec<String>)> = QUALITY_KEYS
        .iter()
        .map(|key| (t(key).to_owned(), reports.iter().map(|r| quality_value(&r.quality, key)).collect()))
        .collect();
    let share = |s: Option<f64>| s.map_or_else(|| "–".to_owned(), |s| format!("{:.1} %", 100.0 * s));
    quality.push((
        t("dice_share").to_owned(),
        reports.iter().map(|r| share(r.quality.analysis.as_ref().and_then(|a| a.dice_share))).collect(),
    ));
    quality.push((
        t("choices_share").to_owned(),
        reports.iter().map(|r| share(r.quality.analysis.as_ref().and_then(|a| a.choices_share))).collect(),
    ));
    let _ = write!(
        page,
        r#"<h2>{}</h2><p class="note">{}</p>{}<ul class="note">"#,
        t("quality"),
        t("quality_text"),
        columns_table(n, &quality)
    );
    for key in QUALITY_KEYS {
        let _ = write!(page, "<li>{}: {}</li>", t(key), t(&format!("{key}_def")));
    }
    page += "</ul>";
    if let Some(a) = reports.iter().find_map(|r| r.quality.analysis.as_ref()) {
        let _ = write!(
            page,
            r#"<p class="note">{}</p>"#,
            fill(t("luck_text"), &[("n", a.games.to_string()), ("method", esc(&a.method))])
        );
    } else {
        let _ = write!(page, r#"<p class="note">{}</p>"#, t("not_reviewed"));
    }
    let seconds: f64 = reports.iter().map(|r| r.timing.seconds).sum();
    let _ = write!(page, r#"<h2>{}</h2><p class="note">{seconds:.3} s</p></body></html>"#, t("timing"));
    page
}

/// The tests of a comparison, one block per rule set after the first.
fn tests_section(comparison: &Comparison, lang: Lang) -> String {
    let t = |key: &str| lang.t(key);
    let mut out = format!(r#"<h2>{}</h2><p class="note">{}</p>"#, t("tests"), t("tests_text"));
    let pct = |x: f64| format!("{:.2} %", 100.0 * x);
    let chi = |what: &str, c: &ChiSquare| {
        fill(
            t("chi_row"),
            &[
                ("what", t(what).to_owned()),
                ("x", format!("{:.2}", c.statistic)),
                ("df", c.df.to_string()),
                ("p", p_text(c.p_value)),
            ],
        )
    };
    for d in &comparison.differences {
        let f = &d.first_mover;
        let _ = write!(
            out,
            r#"<h3><span class="key s{}">■</span> [{}]</h3><ul><li>{}</li>"#,
            d.index % 4,
            d.index + 1,
            fill(
                t("first_mover_test"),
                &[
                    ("a", pct(f.first)),
                    ("b", pct(f.second)),
                    ("d", format!("{:+.2}", 100.0 * f.difference)),
                    ("lo", format!("{:+.2}", 100.0 * f.low)),
                    ("hi", format!("{:+.2}", 100.0 * f.high)),
                    ("z", format!("{:.2}", f.z)),
                    ("p", p_text(f.p_value)),
                ]
            )
        );
        for (what, test) in
            [("winner_position", &d.by_position), ("winner_seat", &d.by_seat), ("winner_bot", &d.by_bot)]
        {
            if let Some(c) = test {
                let _ = write!(out, "<li>{}</li>", chi(what, c));
            }
        }
        out += "</ul>";
    }
    out
}

/// The game's figures with one column per rule set (means) and grouped bars (frequencies).
fn figures_columns(reports: &[SimReport], lang: Lang) -> String {
    let t = |key: &str| lang.t(key);
    let mut paths: Vec<&String> = reports.iter().flat_map(|r| r.figures.keys()).collect();
    paths.sort();
    paths.dedup();
    if paths.is_empty() {
        return String::new();
    }
    let mut means = Vec::new();
    let mut charts = String::new();
    for path in paths {
        let figures: Vec<Option<&Figure>> = reports.iter().map(|r| r.figures.get(path)).collect();
        if figures.iter().flatten().any(|f| matches!(f, Figure::Frequencies { .. })) {
            let empty = std::collections::BTreeMap::new();
            let series: Vec<&std::collections::BTreeMap<String, f64>> = figures
                .iter()
                .map(|f| match f {
                    Some(Figure::Frequencies { frequencies }) => frequencies,
                    _ => &empty,
                })
                .collect();
            let _ = write!(charts, "<h3>{}</h3>{}", esc(path), frequency_chart(&series));
        } else {
            let cells = figures
                .iter()
                .map(|f| match f {
                    Some(Figure::Mean { mean }) => format!("{mean:.3}"),
                    _ => "–".to_owned(),
                })
                .collect();
            means.push((esc(path), cells));
        }
    }
    format!(
        r#"<h2>{}</h2><p class="note">{}</p>{}{charts}"#,
        t("figures"),
        t("figures_text"),
        columns_table(reports.len(), &means)
    )
}
