//! `madang sim … --report FILE.html`: a run's report as one self-contained HTML page — charts
//! as inline SVG, styles inline, no script and nothing fetched from elsewhere, readable on a
//! phone, in Korean or English (`docs/lab.md`, "The HTML report").

use std::fmt::Write as _;

use crate::{Figure, Rate, SimReport};

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
                "막대는 승률, 가는 선은 95 % 신뢰구간(윌슨), 세로 점선은 공평한 몫(1/자리 수)입니다.",
                "Bars are win rates, thin lines their 95 % intervals (Wilson), the dotted line a fair share (1/seats).",
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
    let rules = serde_json::to_string(&report.rules).unwrap_or_else(|_| "{}".to_owned());
    if rules != "{}" && rules != "null" {
        let _ = write!(command, " --rules '{rules}'");
    }
    if report.review_decisions {
        command += " --review";
    }
    command
}

/// A horizontal bar chart of win rates with their intervals, as inline SVG.
fn rate_chart(rates: &[Rate], fair: f64) -> String {
    let (width, row, left, right) = (340.0, 26.0, 92.0, 300.0);
    let height = row * rates.len() as f64 + 8.0;
    let x = |p: f64| left + (right - left) * p.clamp(0.0, 1.0);
    let mut svg = format!(r#"<svg viewBox="0 0 {width} {height}" width="100%" role="img" class="chart">"#);
    if fair > 0.0 {
        let _ = write!(svg, r#"<line x1="{f}" y1="0" x2="{f}" y2="{height}" class="fair"/>"#, f = x(fair));
    }
    for (i, r) in rates.iter().enumerate() {
        let y = 4.0 + row * i as f64;
        let _ = write!(
            svg,
            r#"<text x="{tx}" y="{ty}" class="label">{name}</text><rect x="{left}" y="{by}" width="{bw}" height="14" class="bar"/><text x="{vx}" y="{ty}" class="value">{pct:.1}%</text>"#,
            tx = left - 6.0,
            ty = y + 12.0,
            name = esc(&r.name),
            by = y + 2.0,
            bw = x(r.win_rate) - left,
            vx = right + 4.0,
            pct = 100.0 * r.win_rate,
        );
        if r.interval.high > r.interval.low {
            let _ = write!(
                svg,
                r#"<line x1="{lo}" y1="{my}" x2="{hi}" y2="{my}" class="ci"/><line x1="{lo}" y1="{t1}" x2="{lo}" y2="{t2}" class="ci"/><line x1="{hi}" y1="{t1}" x2="{hi}" y2="{t2}" class="ci"/>"#,
                lo = x(r.interval.low),
                hi = x(r.interval.high),
                my = y + 9.0,
                t1 = y + 4.0,
                t2 = y + 14.0,
            );
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

/// Frequencies as a bar chart (share of games), as inline SVG.
fn frequency_chart(frequencies: &std::collections::BTreeMap<String, f64>) -> String {
    let rates: Vec<Rate> = frequencies
        .iter()
        .map(|(name, share)| Rate {
            name: name.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            win_rate: *share,
            interval: crate::Interval { low: *share, high: *share },
        })
        .collect();
    rate_chart(&rates, 0.0)
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Noto Sans KR','Apple SD Gothic Neo','Malgun Gothic',sans-serif;margin:0 auto;max-width:760px;padding:12px;color:#222;line-height:1.45}h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.6em;border-bottom:1px solid #ddd}code{word-break:break-all;background:#f4f4f4;padding:2px 4px}.chart{max-width:640px;display:block}.bar{fill:#4a7ab5}.ci{stroke:#222;stroke-width:1.5}.fair{stroke:#c44;stroke-dasharray:3 3}.axis{stroke:#888}.label{font-size:11px;text-anchor:end}.value{font-size:11px}.end{text-anchor:end}table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;border-bottom:1px solid #eee}.note{color:#555;font-size:.9em}";

/// The report as a self-contained HTML page in `lang`.
pub fn html(report: &SimReport, lang: Lang) -> String {
    let t = |key: &str| lang.t(key);
    let seats = report.by_seat.len().max(1);
    let fair = 1.0 / seats as f64;
    let mut page = format!(
        r#"<!doctype html><html lang="{code}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>madang — {game} — {title}</title><style>{STYLE}</style></head><body><h1>{game} — {title}</h1><p>{games} {unit}</p>"#,
        code = lang.code(),
        game = esc(&report.game),
        title = t("title"),
        games = report.games,
        unit = t("games"),
    );
    let _ = write!(
        page,
        "<h2>{}</h2><table><tr><th>{}</th><td><code>{}</code></td></tr><tr><th>{}</th><td>{}</td></tr><tr><th>{}</th><td>{}</td></tr><tr><th>{}</th><td>{}{}</td></tr><tr><th>{}</th><td><code>{}</code></td></tr></table>",
        t("run"),
        t("command"),
        esc(&command(report)),
        t("version"),
        esc(&report.version),
        t("seed"),
        report.seed,
        t("bots"),
        esc(&report.bots.join(", ")),
        if report.rotate_seats { format!(" ({})", t("rotated")) } else { String::new() },
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
        let _ = write!(page, "<h2>{}</h2>{}", t(key), rate_chart(rates, fair));
    }
    let _ = write!(page, r#"<p class="note">{}</p>"#, t("bars"));
    if let Some(first) = crate::FirstMoverEdge::of(&report.totals.by_position) {
        let _ = write!(
            page,
            "<h2>{}</h2><p>{} <strong>{:+.2}%p</strong> ({:+.2} … {:+.2})</p>",
            t("edge"),
            t("edge_text"),
            100.0 * (first.win_rate - first.fair),
            100.0 * (first.win_interval.low - first.fair),
            100.0 * (first.win_interval.high - first.fair),
        );
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
                    let _ = write!(charts, "<h3>{}</h3>{}", esc(path), frequency_chart(frequencies));
                }
            }
        }
        page += "</table>";
        page += &charts;
    }
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
