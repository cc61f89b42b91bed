/// The report's CSS: light and dark colours from the reader's preference, a layout that narrows to
/// a phone, print rules. Colour-blind-safe category colours (Okabe and Ito), each with a texture in
/// the charts too (`SVGChart.patterns`).
enum ReportStyle {
    /// Rules the charts need; shared by the page and a standalone SVG file.
    static let charts = """
    :root{--bg:#ffffff;--fg:#1a1a1a;--muted:#5c5c5c;--grid:#d9d9d9;--empty:#ebedf0;--accent:#0b5fa5;--heat:#c2410c;\
    --c0:#0072b2;--c1:#d55e00;--c2:#009e73;--c3:#cc79a7;--c4:#e69f00;--c5:#56b4e9;--c6:#8c6d1f;--c7:#6b6b6b}
    @media (prefers-color-scheme: dark){:root{--bg:#16181c;--fg:#e8e8e8;--muted:#a8a8a8;--grid:#3a3d42;--empty:#2a2d33;\
    --accent:#6cb4ff;--heat:#ff9a5c;--c0:#56b4e9;--c1:#ff8c42;--c2:#2fd3a0;--c3:#e79ccc;--c4:#f0c05a;--c5:#9fd7f7;--c6:#d2b46a;--c7:#b0b0b0}}
    .chart{max-width:100%;height:auto;font:11px system-ui,sans-serif}
    .chart text{fill:var(--fg)}.chart .val{fill:var(--muted)}
    .c0{fill:var(--c0)}.c1{fill:var(--c1)}.c2{fill:var(--c2)}.c3{fill:var(--c3)}.c4{fill:var(--c4)}.c5{fill:var(--c5)}.c6{fill:var(--c6)}.c7{fill:var(--c7)}
    .tx{stroke:var(--bg);stroke-width:1.3;fill:none}.td{fill:var(--bg)}
    .year{font-weight:bold}
    .empty{fill:var(--empty)}.grid{stroke:var(--grid);fill:none}.frame{fill:none;stroke:var(--grid)}
    .prev{fill:none;stroke:var(--fg);stroke-width:1;stroke-dasharray:3 2}
    .route{fill:none;stroke:var(--accent);stroke-width:2.5;stroke-linejoin:round;stroke-linecap:round}
    .start{fill:var(--bg);stroke:var(--fg);stroke-width:2}.finish{fill:var(--fg)}
    .elev{fill:var(--accent);fill-opacity:.25}.elevline{fill:none;stroke:var(--accent);stroke-width:1.5}
    .heat{fill:none;stroke:var(--heat);stroke-opacity:.35;stroke-width:2;stroke-linejoin:round;stroke-linecap:round}
    .open{fill:none;stroke:var(--c1);stroke-width:2}.done{fill:none;stroke:var(--c2);stroke-width:2;stroke-dasharray:6 3}.form{fill:none;stroke:var(--c3);stroke-width:2;stroke-dasharray:1 3}
    .bar{fill:var(--c2)}.sheet{fill:var(--bg)}
    """

    /// The page's own rules.
    static let page = """
    *{box-sizing:border-box}
    body{margin:0 auto;padding:1rem;max-width:60rem;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,sans-serif}
    h1{font-size:1.6rem;margin:.2rem 0}h2{font-size:1.25rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--grid)}
    h3{font-size:1rem;margin:1rem 0 .3rem}
    .muted,figcaption,footer{color:var(--muted)}
    figure{margin:.8rem 0}figcaption{font-size:.85rem}
    .scroll{overflow-x:auto}
    table{border-collapse:collapse;font-size:.9rem;margin:.4rem 0}
    th,td{padding:.2rem .6rem;text-align:left;border-bottom:1px solid var(--grid);white-space:nowrap}td.t{white-space:normal;min-width:12rem}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
    .routes{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:1rem}
    .routes figure{margin:0}
    code{font-size:.85rem}footer code{word-break:break-all}
    footer{margin-top:2rem;padding-top:.5rem;border-top:1px solid var(--grid);font-size:.85rem}
    @media print{:root{--bg:#fff;--fg:#000;--muted:#444;--grid:#ccc;--empty:#eee;--accent:#0b5fa5;--heat:#c2410c}body{max-width:none;font-size:11pt}
    section,figure,table{break-inside:avoid}h2{break-after:avoid}.scroll{overflow:visible}}
    """
}
