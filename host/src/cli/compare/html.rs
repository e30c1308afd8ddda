//! The comparison as one self-contained HTML page: a stable anchor per rule point
//! (`#showdown.odd_chip`, a link a regulator can send), filters by area and by kind of
//! difference, a search box, a CSV download, and a print stylesheet (A4, the differing rows
//! only, each cell with its article). It fits a 1280 px screen: columns share the width and
//! long words wrap.

use super::meta::Comparison;
use super::text::{citation, pair_lines};
use floor_engine::ruleset::{Difference, Row};
use std::collections::BTreeSet;
use std::fmt::Write as _;

const STYLE: &str = "\
body{font-family:system-ui,sans-serif;margin:1rem;color:#222;max-width:100%}
h1{font-size:1.3rem;margin:.2rem 0}
.meta,.defs{font-size:.8rem;color:#444}
.defs dt{font-weight:700;float:left;width:6rem}.defs dd{margin-left:6.5rem}
.controls{display:flex;flex-wrap:wrap;gap:.6rem;align-items:center;margin:.6rem 0;font-size:.85rem}
table{border-collapse:collapse;width:100%;table-layout:fixed;font-size:.78rem}
th,td{border:1px solid #ccc;padding:.3rem;vertical-align:top;text-align:left;overflow-wrap:anywhere}
th{background:#f2f2f2;position:sticky;top:0}
th.diff{width:13%}th.point{width:11%}
td.diff .kind{font-weight:700;display:block}
tr.outcome td.diff{background:#ffd6cc}tr.silent td.diff{background:#e6e0ff}
tr.ruling td.diff{background:#fff0b3}tr.wording td.diff{background:#e8f4e8}
td.unregulated{color:#888;background:#f7f7f7;font-style:italic}
.cite{display:block;color:#555;font-size:.72rem;margin-top:.2rem}
.reading{display:block;color:#666;font-size:.72rem;font-style:italic}
.value{display:block;font-size:.72rem}
.pairs{margin:.2rem 0 0;padding-left:1rem;font-size:.72rem}
a.anchor{color:inherit;text-decoration:none}
@media print{
@page{size:A4 landscape;margin:10mm}
body{margin:0;font-size:9pt}
.controls,.defs-toggle{display:none}
tr.same{display:none !important}
th{position:static}
table{font-size:7pt}
tr{break-inside:avoid}
}
";

/// The filters, also read from the address (`?q=words&area=...&kinds=outcome,silent`) so a
/// filtered view is a link too; `data-width` on the body records the page's width as laid
/// out.
const SCRIPT: &str = "\
function applyFilters(){
const q=document.getElementById('search').value.toLowerCase();
const area=document.getElementById('area').value;
const kinds=new Set([...document.querySelectorAll('input.kind:checked')].map(k=>k.value));
for(const r of document.querySelectorAll('tbody tr')){
const ok=(!q||r.textContent.toLowerCase().includes(q))&&(!area||r.dataset.area===area)&&r.dataset.kinds.split(' ').some(k=>kinds.has(k));
r.hidden=!ok;}
document.getElementById('shown').textContent=document.querySelectorAll('tbody tr:not([hidden])').length;
document.body.dataset.width=document.documentElement.scrollWidth;
}
function fromAddress(){
const p=new URLSearchParams(location.search);
if(p.has('q'))document.getElementById('search').value=p.get('q');
if(p.has('area'))document.getElementById('area').value=p.get('area');
if(p.has('kinds')){const k=new Set(p.get('kinds').split(','));for(const c of document.querySelectorAll('input.kind'))c.checked=k.has(c.value);}
applyFilters();
}
document.addEventListener('input',applyFilters);document.addEventListener('change',applyFilters);
window.addEventListener('load',fromAddress);
function downloadCsv(a){
const q=s=>'\"'+s.replace(/\"/g,'\"\"')+'\"';
const lines=[[...document.querySelectorAll('thead th')].map(h=>q(h.textContent)).join(',')];
for(const r of document.querySelectorAll('tbody tr:not([hidden])'))lines.push([...r.cells].map(c=>q(c.innerText.replace(/\\s+/g,' ').trim())).join(','));
a.href=URL.createObjectURL(new Blob([lines.join('\\r\\n')],{type:'text/csv'}));
return true;
}
";

pub fn render(c: &Comparison) -> String {
    let mut out = String::from(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>floor compare</title>\n<style>\n",
    );
    out.push_str(STYLE);
    out.push_str("</style></head><body>\n<h1>floor compare</h1>\n");
    header(&mut out, c);
    controls(&mut out, c);
    out.push_str(
        "<table><thead><tr><th class=\"diff\">difference</th><th class=\"point\">rule point</th>",
    );
    for id in &c.matrix.rulesets {
        let _ = write!(out, "<th>{}</th>", escape(id));
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in &c.matrix.rule_points {
        row_html(&mut out, row, &c.matrix.rulesets);
    }
    out.push_str("</tbody></table>\n<script>\n");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body></html>");
    out
}

fn header(out: &mut String, c: &Comparison) {
    let _ = write!(
        out,
        "<p class=\"meta\" id=\"meta\">floor {} · {}<br>",
        escape(c.floor_version),
        escape(&c.date)
    );
    for e in &c.editions {
        let from = e
            .extends
            .as_ref()
            .map_or(String::new(), |p| format!(", extends {}", escape(p)));
        let _ = write!(
            out,
            "{} version {} (sha256 <code>{}</code>{from})<br>",
            escape(&e.id),
            escape(&e.version),
            escape(&e.sha256)
        );
    }
    out.push_str("</p>\n<dl class=\"defs\" id=\"definitions\">");
    for d in &c.definitions {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", d.label, escape(d.meaning));
    }
    out.push_str("</dl>\n");
}

fn controls(out: &mut String, c: &Comparison) {
    out.push_str("<div class=\"controls\"><label>Search <input id=\"search\" type=\"search\" placeholder=\"words, article, ruleset\"></label> <label>Area <select id=\"area\"><option value=\"\">every area</option>");
    let areas: BTreeSet<&str> = c.matrix.rule_points.iter().map(|r| r.area).collect();
    for a in areas {
        let _ = write!(out, "<option>{}</option>", escape(a));
    }
    out.push_str("</select></label>");
    for kind in Difference::DIFFERENCES
        .iter()
        .chain([Difference::Same].iter())
    {
        let name = kind.label().to_lowercase();
        let _ = write!(
            out,
            "<label><input type=\"checkbox\" class=\"kind\" value=\"{name}\" checked> {}</label>",
            kind.label()
        );
    }
    out.push_str(
        " <a id=\"csv\" download=\"floor-compare.csv\" href=\"#\" onclick=\"return downloadCsv(this)\">CSV of the rows shown</a> <span><span id=\"shown\"></span> rule points shown</span></div>\n",
    );
}

fn row_html(out: &mut String, row: &Row, rulesets: &[String]) {
    let mut kinds: BTreeSet<String> = row
        .pairs
        .iter()
        .map(|p| p.difference.label().to_lowercase())
        .collect();
    if kinds.is_empty() {
        kinds.insert("same".into());
    }
    let kinds: Vec<String> = kinds.into_iter().collect();
    let id = escape(&row.id);
    let _ = write!(
        out,
        "<tr id=\"{id}\" class=\"{}\" data-area=\"{}\" data-kinds=\"{}\"><td class=\"diff\"><span class=\"kind\">{}</span>",
        row.difference.label().to_lowercase(),
        escape(row.area),
        kinds.join(" "),
        row.difference.label()
    );
    let lines = pair_lines(row);
    if !lines.is_empty() {
        out.push_str("<ul class=\"pairs\">");
        for l in lines {
            let _ = write!(out, "<li>{}</li>", escape(&l));
        }
        out.push_str("</ul>");
    }
    let _ = write!(
        out,
        "</td><td class=\"point\"><a class=\"anchor\" href=\"#{id}\">{id}</a><span class=\"cite\">{:?} · {}</span></td>",
        row.kind,
        escape(row.area)
    );
    for rid in rulesets {
        match row.cells.get(rid) {
            Some(cell) if cell.regulated => {
                let value = cell.value_text.as_ref().map_or(String::new(), |v| {
                    format!("<span class=\"value\">value: {}</span>", escape(v))
                });
                let reading = cell.reading.as_ref().map_or(String::new(), |r| {
                    format!("<span class=\"reading\">reading: {}</span>", escape(r))
                });
                let _ = write!(
                    out,
                    "<td>{}{value}{reading}<span class=\"cite\">{} — {}</span></td>",
                    escape(&cell.ruling),
                    escape(rid),
                    escape(&citation(cell))
                );
            }
            _ => {
                let _ = write!(
                    out,
                    "<td class=\"unregulated\">not regulated by this text<span class=\"cite\">{}</span></td>",
                    escape(rid)
                );
            }
        }
    }
    out.push_str("</tr>\n");
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
