/* page.js — the script of tritium's HTML page (page/write.c embeds it; the
 * data is the JSON of <script id="tritium-data">, written by page/collect.c;
 * docs/html.md describes the page). No library, no network.
 *
 * Test hooks (tests/html): window.tritium.{ready, errors, pick(p),
 * showLaunch(k), cellCenter(map, element, cmp)}; document.body's
 * data-ready, data-launch and data-program; each map's data-loaded,
 * data-stored and data-faulted (cells the picked program touched). */
(function () {
  'use strict';
  var T = window.tritium = { ready: false, errors: [] };
  window.addEventListener('error', function (e) {
    T.errors.push(String(e.message || e));
    document.body.setAttribute('data-errors', String(T.errors.length));
  });

  // cell state bits (page_int.h)
  var READ = 1, WRITE = 2, ATOMIC = 4, MANYR = 8, MANYW = 16, RACE = 32, UNINIT = 64, FAULT = 128;
  var RUN_LOAD = 0, RUN_STORE = 1, RUN_ATOMIC = 2, RUN_FAULT = 3;

  var DATA = JSON.parse(document.getElementById('tritium-data').textContent);
  var app = document.getElementById('app');
  var cur = null;          // the launch shown: {L, k, maps: [...decoded], progs}
  var picked = -1;         // the program picked, -1 none
  var flash = null;        // {map, cell}: a report's element, ringed
  var tip = null;

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'cls') e.className = attrs[k];
      else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    if (kids) for (var i = 0; i < kids.length; i++) if (kids[i] != null) e.appendChild(typeof kids[i] === 'string' ? document.createTextNode(kids[i]) : kids[i]);
    return e;
  }

  // ---- binary arrays --------------------------------------------------------
  function bytesOf(b64) {
    var s = atob(b64), n = s.length, u = new Uint8Array(n);
    for (var i = 0; i < n; i++) u[i] = s.charCodeAt(i);
    return u;
  }
  function typed(t, u) {
    var buf = u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength);
    switch (t) {
      case 'u8': return new Uint8Array(buf);
      case 'u16': return new Uint16Array(buf);
      case 'i32': return new Int32Array(buf);
      case 'u32': return new Uint32Array(buf);
      case 'f32': return new Float32Array(buf);
      case 'f64': return new Float64Array(buf);
    }
    throw new Error('unknown array type ' + t);
  }
  function decode(b) {
    if (!b) return Promise.resolve(null);
    var u = bytesOf(b.d);
    if (!b.z) return Promise.resolve(typed(b.t, u));
    var ds = new Blob([u]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Response(ds).arrayBuffer().then(function (ab) { return typed(b.t, new Uint8Array(ab)); });
  }
  function decodeAll(obj, keys) {
    var out = {};
    return Promise.all(keys.map(function (k) {
      return decode(obj[k]).then(function (v) { out[k] = v; });
    })).then(function () { return out; });
  }

  // ---- words ------------------------------------------------------------------
  function pidOf(L, lin) {
    var gx = Math.max(L.grid[0], 1), gy = Math.max(L.grid[1], 1);
    return [lin % gx, Math.floor(lin / gx) % gy, Math.floor(lin / gx / gy)];
  }
  function pidText(p) { return '(' + p[0] + ', ' + p[1] + ', ' + p[2] + ')'; }
  function progText(L, lin) { return 'program ' + pidText(pidOf(L, lin)); }
  function fileName(L, k) { return L.files && L.files[k] ? L.files[k].name : '?'; }
  function locText(L, at) {
    if (!at) return '?';
    var s = fileName(L, at.file).replace(/^.*\//, '') + ':' + at.line;
    if (at.func && at.func !== L.kernel) s += ' (in ' + at.func + ')';
    return s;
  }
  function opLoc(L, idx) { return idx > 0 && L.locs ? L.locs[idx - 1] : null; }
  function unravel(shape, e) {
    if (shape.length <= 1) return [e];
    var idx = new Array(shape.length);
    for (var d = shape.length - 1; d > 0; d--) {
      var n = Math.max(shape[d], 1), q = Math.floor(e / n);
      idx[d] = e - q * n;
      e = q;
    }
    idx[0] = e;
    return idx;
  }
  function indexText(m, e) { return m.name + '[' + unravel(m.shape, e).join(', ') + ']'; }
  function fmt(v) {
    if (v === null || v === undefined || (typeof v === 'number' && isNaN(v))) return 'nan';
    if (!isFinite(v)) return v > 0 ? 'inf' : '-inf';
    if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
    var a = Math.abs(v);
    return (a !== 0 && (a < 1e-4 || a >= 1e7)) ? v.toExponential(6) : String(+v.toPrecision(8));
  }
  function plural(n, w) { return n + ' ' + w + (n === 1 ? '' : /(ch|s|x)$/.test(w) ? 'es' : 's'); }
  var KIND_WORDS = {
    'out-of-bounds': 'out-of-bounds', 'misaligned': 'misaligned', 'type-mismatched': 'type-mismatched',
    'bad-loop-step': 'loop with a step <= 0', 'write-write-race': 'write-write race', 'read-after-write-race': 'read-after-write race',
    'write-after-read-race': 'write-after-read race', 'uninitialized-read': 'uninitialized read', 'overflow': 'integer overflow',
    'outside-view': 'access outside the view'
  };
  function repClass(r) { return r.fault ? 'fault' : r.race ? 'race' : 'warn'; }

  // ---- colours (CSS strings for the legend, [r, g, b] for the maps' pixels) --------
  // few programs: the golden angle apart (neighbours contrast); many: a
  // rainbow over the grid, so that the map shows which region which part of
  // the grid wrote
  var NPROG = 1;
  function hue(p) { return NPROG <= 24 ? (p * 137.508) % 360 : 300 * p / Math.max(1, NPROG - 1); }
  function hslRgb(h, sat, l) {
    sat /= 100; l /= 100;
    var c = (1 - Math.abs(2 * l - 1)) * sat, x = c * (1 - Math.abs((h / 60) % 2 - 1)), mm = l - c / 2, r, g, b;
    if (h < 60) { r = c; g = x; b = 0; } else if (h < 120) { r = x; g = c; b = 0; } else if (h < 180) { r = 0; g = c; b = x; }
    else if (h < 240) { r = 0; g = x; b = c; } else if (h < 300) { r = x; g = 0; b = c; } else { r = c; g = 0; b = x; }
    return [Math.round((r + mm) * 255), Math.round((g + mm) * 255), Math.round((b + mm) * 255)];
  }
  function hexRgb(h) { return [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)]; }
  var wCache = new Map(), rCache = new Map();
  function writerRgb(p) { var c = wCache.get(p); if (!c) { c = hslRgb(hue(p), 62, 50); wCache.set(p, c); } return c; }
  function readerRgb(p) { var c = rCache.get(p); if (!c) { c = hslRgb(hue(p), 52, 82); rCache.set(p, c); } return c; }
  var UNTOUCHED = '#e3e6ea', MANY_READERS = '#b9c3d3', FAULT_C = '#d7191c', RACE_C = '#c2187a', UNINIT_C = '#e89a0c';
  var RGB = { untouched: hexRgb(UNTOUCHED), many: hexRgb(MANY_READERS), fault: hexRgb(FAULT_C), race: hexRgb(RACE_C),
              uninit: hexRgb(UNINIT_C), oob: hexRgb('#f3b0b0'), same: hexRgb('#edf3ee'), load: hexRgb('#1f6feb'),
              store: hexRgb('#111111') };

  // ---- the page -----------------------------------------------------------------
  function header() {
    var h = el('header', { cls: 'top' }, [el('h1', { text: DATA.title }), el('span', { cls: 'gen', text: 'tritium · ' + DATA.launches.length + ' launch' + (DATA.launches.length === 1 ? '' : 'es') + (DATA.launches_total > DATA.launches.length ? ' of ' + DATA.launches_total : '') })]);
    app.appendChild(h);
    if (DATA.launches.length > 1) {
      var nav = el('nav', { cls: 'launches', id: 'launches' });
      DATA.launches.forEach(function (L, k) {
        nav.appendChild(el('button', { 'data-launch': String(k), onclick: function () { showLaunch(k); } },
          [L.kernel + (L.label ? ' · ' + L.label : '') + ' ', el('span', { cls: 'badge ' + L.status, text: L.status })]));
      });
      app.appendChild(nav);
    }
    if (DATA.dropped > 0)
      app.appendChild(el('div', { cls: 'banner', text: DATA.dropped + ' launch' + (DATA.dropped === 1 ? '' : 'es') + ' kept only their summary: a page holds the maps of ' + DATA.max_launches + ' launches, the ones that faulted, raced or disagreed first.' }));
    app.appendChild(el('main', { id: 'launch' }));
    tip = el('div', { cls: 'tip', id: 'tip' });
    tip.hidden = true;
    document.body.appendChild(tip);
  }

  function summary(L) {
    var st = L.stats, rows = [];
    function row(k, v) { rows.push(el('tr', null, [el('th', { text: k }), el('td', null, [v])])); }
    row('kernel', el('span', null, [el('code', { text: L.kernel }), ' in ' + L.file + (L.label ? ' · ' + L.label : '') + ' ', el('span', { cls: 'badge ' + L.status, text: L.status })]));
    row('grid', '(' + L.grid.join(', ') + '): ' + plural(L.nprograms, 'program') + (st.programs !== L.nprograms ? ', ' + st.programs + ' ran' : '') + ', num_warps ' + L.num_warps);
    row('schedule', L.schedule + ', numerics ' + L.numerics + ', seed ' + L.seed);
    var checks = plural(st.faults, 'fault') + ' (' + plural(st.fault_lanes, 'lane') + '), ' + plural(st.races, 'race') + ', ' + plural(st.uninit_reads, 'uninitialized read');
    if (st.overflows) checks += ', ' + plural(st.overflows, 'integer overflow');
    if (st.view_lanes) checks += ', ' + plural(st.view_lanes, 'lane') + ' outside a view';
    row('checks', checks);
    if (L.other) row('compared', L.ref + ' against ' + L.other + ': ' + (L.mismatches ? plural(L.mismatches, 'mismatching element') : 'all written tensors agree'));
    if (st.seconds !== null) row('time', (st.seconds * 1e3).toFixed(3) + ' ms in the interpreter');
    var args = el('span', { cls: 'mono' });
    (L.args || []).forEach(function (a, i) {
      if (i) args.appendChild(document.createTextNode(', '));
      args.appendChild(document.createTextNode(a.name + '=' + (a.kind === 'tensor' ? a.value : (a.value === null ? 'nan' : a.value))));
    });
    row('arguments', args);
    return el('section', { cls: 'summary' }, [el('table', { cls: 'summary' }, rows)]);
  }

  function reportText(L, r) {
    var sev = r.fault ? 'error' : 'warning';
    var s = KIND_WORDS[r.kind] || r.kind;
    var t = sev + ': ' + s + ' (' + r.op.replace(/^tt\./, '') + ') in program ' + pidText(r.program) + ' at ' + locText(L, r.at);
    if (r.map !== null && r.map !== undefined && r.index) t += ': ' + L.maps[r.map].name + r.index;
    if (r.other_program) t += ' (other program ' + pidText(r.other_program) + ')';
    t += '; ' + plural(r.lanes, 'lane') + ' in ' + plural(r.programs, 'program');
    return t;
  }

  function reports(L) {
    var sec = el('section', { cls: 'reports', id: 'reports' }, [el('h2', { text: 'Reports' })]);
    if (!L.reports.length) { sec.appendChild(el('p', { cls: 'none', text: 'No fault, race or uninitialized read.' })); return sec; }
    var ol = el('ol', { cls: 'reports' });
    L.reports.forEach(function (r, i) {
      var li = el('li', { cls: 'rep', 'data-kind': r.kind, 'data-report': String(i) }, [el('span', { cls: 'k-' + repClass(r), text: reportText(L, r) })]);
      if (r.map !== null && r.map !== undefined) { li.setAttribute('data-map', String(r.map)); li.setAttribute('data-element', String(r.element)); }
      li.addEventListener('click', function () { selectReport(i); });
      ol.appendChild(li);
    });
    sec.appendChild(ol);
    if (L.far_oob) sec.appendChild(el('p', { cls: 'none', text: plural(L.far_oob, 'out-of-bounds lane') + ' addressed no buffer nearby: not drawn.' }));
    return sec;
  }

  function source(L) {
    var sec = el('section', { cls: 'source', id: 'source' }, [el('h2', { text: 'Source' })]);
    var marks = {};     // "file:line" -> {cls, badges}
    function mark(f, line) { var k = f + ':' + line; return marks[k] || (marks[k] = { cls: '', badges: [] }); }
    (L.locs || []).forEach(function (lc) { if (lc) { var m = mark(lc.file, lc.line); if (m.badges.indexOf(lc.kind) < 0) m.badges.push(lc.kind); } });
    L.reports.forEach(function (r) {
      if (!r.at) return;
      var m = mark(r.at.file, r.at.line), c = repClass(r);
      if (!m.cls || c === 'fault' || (c === 'race' && m.cls === 'rep-warn')) m.cls = 'rep-' + c;
      if (m.badges.indexOf(c) < 0) m.badges.push(c);
    });
    (L.files || []).forEach(function (f, fi) {
      var box = el('div', { cls: 'src' }, [el('div', { cls: 'fname', text: f.name })]);
      f.lines.forEach(function (text, i) {
        var line = f.first + i, m = marks[fi + ':' + line];
        var bd = el('span', { cls: 'bd' });
        if (m) m.badges.forEach(function (b) { bd.appendChild(el('span', { cls: 'b-' + b, text: b })); });
        box.appendChild(el('div', { cls: 'ln' + (m && m.cls ? ' ' + m.cls : ''), id: 'L' + fi + '-' + line, 'data-line': String(line) },
          [el('span', { cls: 'no', text: String(line) }), bd, el('span', { cls: 'tx', text: text })]));
      });
      sec.appendChild(box);
    });
    return sec;
  }

  function legend(L) {
    function sw(c, t) { return el('span', null, [el('i', { style: 'background:' + c }), t]); }
    var kids = [sw('linear-gradient(90deg,hsl(0,62%,50%),hsl(137,62%,50%),hsl(275,62%,50%))', 'written (colour: the last writing program)'),
      sw('hsl(137,52%,82%)', 'read only (its reader)'), sw(MANY_READERS, 'read by several programs'), sw(UNTOUCHED, 'not accessed'),
      sw(FAULT_C, 'fault'), sw(RACE_C, 'race'), sw(UNINIT_C, 'uninitialized read')];
    kids.push(sw('#1f6feb', 'loaded by the picked program'), sw('#111', 'stored by it'));
    return el('div', { cls: 'legend' }, kids);
  }

  // ---- maps -------------------------------------------------------------------
  function geom(m) {
    var rows = m.r1 - m.r0;
    var cs = Math.max(2, Math.min(22, Math.floor(640 / m.ccols), Math.floor(Math.sqrt(150000 / (m.ccols * rows)))));
    var ch = cs;
    if (rows * ch > 1400) ch = Math.max(1, Math.floor(1400 / rows));
    return { rows: rows, cs: cs, ch: ch, w: m.ccols * cs, h: rows * ch };
  }
  // element at shipped cell k (place off in its block); the cell's row in the full arrays is r0 + row
  function cellElem(m, k, off) {
    var row = m.r0 + Math.floor(k / m.ccols), cc = k % m.ccols, cr = row - m.over;
    off = off || 0;
    return (cr * m.bh + Math.floor(off / m.bw)) * m.cols + cc * m.bw + off % m.bw;
  }
  function firstElem(m, k) { return cellElem(m, k, 0); }
  function inside(m, k) { var e = firstElem(m, k); return e >= 0 && e < m.numel; }
  function cellOfElem(m, e) {       // shipped cell index, -1 when not shown
    var r = Math.floor(e / m.cols), c = e - r * m.cols;
    var cr = Math.floor(r / m.bh), cc = Math.floor(c / m.bw), row = cr + m.over;
    if (row < m.r0 || row >= m.r1) return -1;
    return (row - m.r0) * m.ccols + cc;
  }

  // the cell's colour ([r, g, b]), null where the map shows the overhang's stripes
  function cellRgb(m, k, isIn) {
    var s = m.st[k];
    if (s & FAULT) return RGB.fault;
    if (!isIn) return s ? RGB.oob : null;
    if (s & UNINIT) return RGB.uninit;
    if (s & (WRITE | ATOMIC)) return writerRgb(m.wp[k]);
    if (s & MANYR) return RGB.many;
    if (s & READ) return readerRgb(m.rp[k]);
    return RGB.untouched;
  }

  function errRgb(c, k) {
    var d = c.dst[k];
    if (!d) return RGB.same;
    var e = c.err[k], mx = c.maxErr > 0 ? c.maxErr : 1;
    var t = isFinite(e) ? Math.log1p(e) / Math.log1p(mx) : 1;
    if (d & 2) return hslRgb(8 - 8 * t, 70 + 20 * t, 62 - 22 * t);
    return hslRgb(50, 60 + 30 * t, 78 - 18 * t);
  }

  // The map drawn into a pixel buffer at CSS pixels (cells of cs x ch with a
  // one-pixel gap when they are larger than 3), then the marks as paths.
  function drawMap(mv) {
    var m = mv.m, g = mv.g, cmp = mv.cmp, hl = mv.hl;
    var n = g.rows * m.ccols, cs = g.cs, ch = g.ch, W = g.w, H = g.h;
    var img = mv.img || (mv.img = mv.ctx.createImageData(W, H)), px = img.data;
    var gx = cs > 3 ? 1 : 0, gy = ch > 3 ? 1 : 0;
    if (!mv.ins) {                         // which cells are elements of the tensor
      mv.ins = new Uint8Array(n);
      for (var k0 = 0; k0 < n; k0++) mv.ins[k0] = inside(m, k0) ? 1 : 0;
    }
    var ins = mv.ins;
    for (var k = 0; k < n; k++) {
      var x0 = (k % m.ccols) * cs, y0 = Math.floor(k / m.ccols) * ch, isIn = ins[k];
      var c = cmp ? (isIn ? errRgb(m.cmp, k) : (m.st[k] & FAULT ? RGB.fault : null)) : cellRgb(m, k, isIn);
      var r, gg, bb, gap = 255;
      if (c === null) {                    // the overhang: light stripes
        var odd = ((k % m.ccols) + Math.floor(k / m.ccols)) & 1;
        r = odd ? 246 : 251; gg = odd ? 241 : 248; bb = odd ? 241 : 248; gap = -1;
      } else {
        r = c[0]; gg = c[1]; bb = c[2];
      }
      if (hl && !hl.any[k] && (isIn || m.st[k])) {        // not the picked program's: faded
        r = 255 - (255 - r) * 0.38; gg = 255 - (255 - gg) * 0.38; bb = 255 - (255 - bb) * 0.38;
      } else if (hl && hl.any[k] && !hl.thick) {          // small cells: the picked program's as solid colours
        var sc = hl.kind[k] === 3 ? RGB.fault : hl.kind[k] === 1 ? RGB.store : RGB.load;
        r = sc[0]; gg = sc[1]; bb = sc[2];
      }
      for (var yy = 0; yy < ch; yy++) {
        var row = ((y0 + yy) * W + x0) * 4;
        for (var xx = 0; xx < cs; xx++) {
          var o = row + xx * 4;
          if (gap >= 0 && ((gx && xx === cs - 1) || (gy && yy === ch - 1))) { px[o] = px[o + 1] = px[o + 2] = gap; }
          else { px[o] = r; px[o + 1] = gg; px[o + 2] = bb; }
          px[o + 3] = 255;
        }
      }
    }
    var ctx = mv.ctx;
    var dpr = window.devicePixelRatio || 1;
    if (dpr === 1) ctx.putImageData(img, 0, 0);
    else {
      var off = mv.off || (mv.off = document.createElement('canvas'));
      off.width = W; off.height = H;
      off.getContext('2d').putImageData(img, 0, 0);
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(off, 0, 0, W, H);
    }
    // races: a cross over the writer's colour
    if (!cmp && cs >= 5 && ch >= 5) {
      ctx.strokeStyle = RACE_C;
      ctx.lineWidth = Math.max(1.5, cs / 6);
      ctx.beginPath();
      for (var k1 = 0; k1 < n; k1++) {
        if (!(m.st[k1] & RACE) || (m.st[k1] & FAULT)) continue;
        var x1 = (k1 % m.ccols) * cs, y1 = Math.floor(k1 / m.ccols) * ch;
        ctx.moveTo(x1 + 1, y1 + 1); ctx.lineTo(x1 + cs - 2, y1 + ch - 2); ctx.moveTo(x1 + cs - 2, y1 + 1); ctx.lineTo(x1 + 1, y1 + ch - 2);
      }
      ctx.stroke();
    } else if (!cmp) {
      ctx.fillStyle = RACE_C;
      for (var k1b = 0; k1b < n; k1b++)
        if ((m.st[k1b] & RACE) && !(m.st[k1b] & FAULT)) ctx.fillRect((k1b % m.ccols) * cs, Math.floor(k1b / m.ccols) * ch, cs, ch);
    }
    // the tensor's edge
    ctx.strokeStyle = '#1d2330'; ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (var k2 = 0; k2 < n; k2++) {
      if (!ins[k2]) continue;
      var x2 = (k2 % m.ccols) * cs, y2 = Math.floor(k2 / m.ccols) * ch;
      var up = k2 - m.ccols, dn = k2 + m.ccols, lt = k2 % m.ccols ? k2 - 1 : -1, rt = (k2 + 1) % m.ccols ? k2 + 1 : -1;
      if (up < 0 || !ins[up]) { ctx.moveTo(x2, y2 + 0.5); ctx.lineTo(x2 + cs, y2 + 0.5); }
      if (dn >= n || !ins[dn]) { ctx.moveTo(x2, y2 + ch - 0.5); ctx.lineTo(x2 + cs, y2 + ch - 0.5); }
      if (lt < 0 || !ins[lt]) { ctx.moveTo(x2 + 0.5, y2); ctx.lineTo(x2 + 0.5, y2 + ch); }
      if (rt < 0 || !ins[rt]) { ctx.moveTo(x2 + cs - 0.5, y2); ctx.lineTo(x2 + cs - 0.5, y2 + ch); }
    }
    ctx.stroke();
    // the picked program's cells, outlined when they are large enough
    if (hl && hl.thick) {
      [['load', '#1f6feb', 1.5], ['store', '#111', 2], ['fault', FAULT_C, 2]].forEach(function (p) {
        var set = hl[p[0]];
        ctx.strokeStyle = p[1]; ctx.lineWidth = p[2];
        ctx.beginPath();
        for (var i = 0; i < set.length; i++) {
          var kk = set[i];
          ctx.rect((kk % m.ccols) * cs + 1, Math.floor(kk / m.ccols) * ch + 1, cs - 3, ch - 3);
        }
        ctx.stroke();
      });
    }
    if (flash && flash.map === mv.idx && flash.cmp === cmp && flash.cell >= 0) {
      var fx = (flash.cell % m.ccols) * cs + cs / 2, fy = Math.floor(flash.cell / m.ccols) * ch + ch / 2;
      ctx.strokeStyle = '#000'; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.arc(fx, fy, Math.max(cs, ch, 6) * 0.9, 0, 7); ctx.stroke();
    }
  }

  function mapNote(m) {
    var bits = [];
    if (m.bh * m.bw > 1) {
      bits.push('reduced: ' + m.numel.toLocaleString('en') + ' elements in cells of ' + (m.bh > 1 ? m.bh + '×' + m.bw : m.bw) + ' elements; each cell shows the worst state of its elements (fault, race, uninitialized read) and the last program that wrote or read one');
    }
    if (m.linear && m.shape.length <= 1 && m.crows > 1) bits.push('rows of ' + (m.ccols * m.bw) + ' elements');
    if (m.shape.length > 2) bits.push('dimensions folded: rows are ' + m.shape.slice(0, -1).join('×') + ', columns the last dimension');
    return bits.join('; ');
  }

  function makeMap(L, mv, container) {
    var m = mv.m, cmp = mv.cmp;
    var role = m.written && m.read ? 'read and written' : m.written ? 'written' : m.read ? 'read' : 'not accessed';
    var names = m.args.length > 1 ? ' (also ' + m.args.filter(function (a) { return a !== m.name; }).join(', ') + ': one storage)' : '';
    var title = cmp
      ? [el('span', { text: m.name }), el('span', { cls: 'sub', text: ' ' + m.dtype + '[' + m.shape.join(',') + '] · error of ' + L.other + ' against ' + L.ref + ' in ' + (m.cmp.unit === 'ulp' ? 'ULPs' : 'absolute value') + ' · ' + (m.cmp.mismatches ? plural(m.cmp.mismatches, 'mismatch') : 'agrees') })]
      : [el('span', { text: m.name }), el('span', { cls: 'sub', text: ' ' + m.dtype + '[' + m.shape.join(',') + '] · ' + (m.extra ? 'no parameter (a pointer-table target) · ' : '') + role + names })];
    var div = el('div', { cls: 'map' + (cmp ? ' cmp' : ''), id: (cmp ? 'cmp-' : 'map-') + mv.idx, 'data-name': m.name, 'data-map': String(mv.idx) }, [el('h3', null, title)]);
    var note = mapNote(m);
    if (note) div.appendChild(el('p', { cls: 'note', text: note }));
    if (cmp) {
      var tol = m.cmp.bounds ? 'within each element\u2019s bound (docs/bounds.md)' : m.cmp.exact ? 'exact' : 'rtol ' + m.cmp.rtol + ', atol ' + m.cmp.atol + (m.cmp.ulp >= 0 ? ', ulp ' + m.cmp.ulp : '');
      div.appendChild(el('p', { cls: 'note', text: 'accepted: ' + tol + '; largest error ' + fmt(m.cmp.maxErr) + (m.cmp.unit === 'ulp' ? ' ULPs' : '') + ' · green: same bits, yellow: accepted, red: mismatch' }));
    }
    var over = 0;
    for (var k = 0; k < m.st.length; k++) if (!inside(m, k) && (m.st[k] & FAULT)) over++;
    if (!cmp && over) div.appendChild(el('p', { cls: 'note red', text: plural(over, 'cell') + ' of out-of-bounds lanes drawn past the edge' + (m.far ? '; ' + plural(m.far, 'lane') + ' further out not drawn' : '') }));
    var g = mv.g = geom(m);
    var cv = el('canvas', { 'data-map': String(mv.idx) });
    var dpr = window.devicePixelRatio || 1;
    cv.width = Math.ceil(g.w * dpr); cv.height = Math.ceil(g.h * dpr);
    cv.style.width = g.w + 'px'; cv.style.height = g.h + 'px';
    mv.ctx = cv.getContext('2d');
    mv.ctx.scale(dpr, dpr);
    mv.canvas = cv;
    mv.div = div;
    cv.addEventListener('mousemove', function (ev) { hover(L, mv, ev); });
    cv.addEventListener('mouseleave', function () { tip.hidden = true; unhl(); });
    cv.addEventListener('click', function (ev) {
      var k = cellAt(mv, ev);
      if (k < 0) return;
      var p = m.st[k] & (WRITE | ATOMIC) ? m.wp[k] : m.rp[k];
      if (p >= 0) pick(p);
    });
    div.appendChild(cv);
    container.appendChild(div);
    drawMap(mv);
  }

  function cellAt(mv, ev) {
    var r = mv.canvas.getBoundingClientRect();
    var col = Math.floor((ev.clientX - r.left) / mv.g.cs), row = Math.floor((ev.clientY - r.top) / mv.g.ch);
    if (col < 0 || col >= mv.m.ccols || row < 0 || row >= mv.g.rows) return -1;
    return row * mv.m.ccols + col;
  }

  var hlLines = [];
  function unhl() { hlLines.forEach(function (n) { n.classList.remove('hl'); }); hlLines = []; }
  function hlLoc(at) {
    if (!at) return;
    var n = document.getElementById('L' + at.file + '-' + at.line);
    if (n) { n.classList.add('hl'); hlLines.push(n); }
  }

  function hover(L, mv, ev) {
    var k = cellAt(mv, ev), m = mv.m;
    unhl();
    if (k < 0) { tip.hidden = true; return; }
    var s = m.st[k], lines = [];
    var reduced = m.bh * m.bw > 1;
    var off = reduced && m.off ? m.off[k] : 0;
    if (mv.cmp && reduced && m.cmp.off) off = m.cmp.off[k];
    var e = cellElem(m, k, off);
    var isIn = e >= 0 && e < m.numel;
    var head = '<b>' + esc(indexText(m, e)) + '</b>';
    if (!isIn) head += ' <span class="dim">' + (e < 0 ? plural(-e, 'element') + ' before the start' : 'past the end: ' + m.name + ' has ' + m.numel + ' elements') + '</span>';
    lines.push(head);
    if (reduced) {
      var e0 = firstElem(m, k);
      lines.push('<span class="dim">cell of ' + (m.bh > 1 ? m.bh + '×' + m.bw : m.bw) + ' elements from ' + esc(indexText(m, e0)) + '; ' + (s & (FAULT | RACE | UNINIT) ? 'its worst element' : 'its first element') + ' shown</span>');
    }
    if (mv.cmp) {
      var c = m.cmp;
      if (isIn) {
        lines.push(esc(L.ref) + ' ' + fmt(c.ref[k]) + ' · ' + esc(L.other) + ' ' + fmt(c.got[k]));
        lines.push(c.dst[k] & 2 ? '<b>mismatch</b>: error ' + fmt(c.err[k]) + (c.unit === 'ulp' ? ' ULPs' : '') : c.dst[k] ? 'accepted: ' + fmt(c.err[k]) + (c.unit === 'ulp' ? ' ULPs' : '') : 'same bits');
        if (c.dw[k] >= 0) { var at = opLoc(L, c.dl[k]); lines.push('last written by ' + progText(L, c.dw[k]) + (at ? ' at ' + esc(locText(L, at)) : '')); hlLoc(at); }
        else if (c.dst[k]) lines.push('not written by the interpreter');
      }
    } else {
      if (isIn && m.val) lines.push('value ' + fmt(m.val[k]) + ' <span class="dim">(after the launch)</span>');
      if (s & FAULT) lines.push('<b style="color:#ff8a8a">fault</b>: an out-of-bounds, misaligned or mistyped lane');
      if (s & RACE) lines.push('<b style="color:#ff8ad0">race</b>' + (m.xp && m.xp[k] >= 0 ? ' with ' + progText(L, m.xp[k]) : ' between programs'));
      if (s & UNINIT) lines.push('<b style="color:#ffc04d">uninitialized read</b>: read before any program wrote it');
      if (m.wp[k] >= 0) {
        var wl = opLoc(L, m.wl[k]);
        lines.push((s & ATOMIC ? 'last updated atomically by ' : (s & FAULT) && !isIn ? 'stored by ' : 'last written by ') + progText(L, m.wp[k]) + (wl ? ' at ' + esc(locText(L, wl)) : '') + (s & MANYW ? ' <span class="dim">(other programs wrote it too)</span>' : ''));
        hlLoc(wl);
      }
      if (m.rp[k] >= 0) {
        var rl = opLoc(L, m.rl[k]);
        lines.push(((s & FAULT) && !isIn ? 'loaded by ' : 'last read by ') + progText(L, m.rp[k]) + (rl ? ' at ' + esc(locText(L, rl)) : '') + (s & MANYR ? ' <span class="dim">(and other programs)</span>' : ''));
        hlLoc(rl);
      }
      if (!(s & (READ | WRITE | ATOMIC | FAULT))) lines.push('<span class="dim">no program accessed it</span>');
    }
    tip.innerHTML = lines.join('<br>');
    tip.hidden = false;
    var x = ev.clientX + 14, y = ev.clientY + 14;
    var tw = tip.offsetWidth, th = tip.offsetHeight;
    if (x + tw > window.innerWidth - 4) x = ev.clientX - tw - 10;
    if (y + th > window.innerHeight - 4) y = ev.clientY - th - 10;
    tip.style.left = Math.max(2, x) + 'px'; tip.style.top = Math.max(2, y) + 'px';
  }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; }); }

  // ---- the program picker -----------------------------------------------------
  function progRuns(p) {
    var P = cur.progs;
    if (!P || !P.pp) return null;
    var lo = 0, hi = P.pp.length - 1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (P.pp[mid] === p) return [P.po[mid], P.po[mid + 1]];
      if (P.pp[mid] < p) lo = mid + 1; else hi = mid - 1;
    }
    return [0, 0];
  }

  function highlight() {
    var views = cur.views;
    var runs = picked >= 0 ? progRuns(picked) : null;
    var info = cur.pinfo;
    views.forEach(function (mv) { mv.hl = null; });
    if (picked < 0) {
      document.body.setAttribute('data-program', '');
      views.forEach(function (mv) { mv.div.setAttribute('data-loaded', '0'); mv.div.setAttribute('data-stored', '0'); mv.div.setAttribute('data-faulted', '0'); drawMap(mv); });
      if (info) info.textContent = 'pick a program to see what it loaded and stored';
      return;
    }
    document.body.setAttribute('data-program', String(picked));
    var per = {};
    views.forEach(function (mv) {
      var n = mv.g.rows * mv.m.ccols;
      var h = per[mv.idx] || (per[mv.idx] = { load: [], store: [], fault: [], any: new Uint8Array(n), kind: new Uint8Array(n),
                                              thick: mv.g.cs >= 6 && mv.g.ch >= 6 });
      mv.hl = h;
    });
    var P = cur.progs, tot = { load: 0, store: 0, fault: 0 };
    if (runs) for (var i = runs[0]; i < runs[1]; i++) {
      var mi = P.rk[i] >> 2, kind = P.rk[i] & 3, h = per[mi];
      if (!h) continue;
      var m = cur.maps[mi], base = m.r0 * m.ccols, n = (m.r1 - m.r0) * m.ccols;
      var set = kind === RUN_LOAD ? h.load : kind === RUN_FAULT ? h.fault : h.store;
      for (var c = P.rs[i], e = P.rs[i] + P.rn[i]; c < e; c++) {
        var k = c - base;
        if (k < 0 || k >= n) continue;
        set.push(k);
        h.any[k] = 1;
        if (kind === RUN_FAULT || (kind !== RUN_LOAD && h.kind[k] !== RUN_FAULT)) h.kind[k] = kind === RUN_FAULT ? 3 : 1;
      }
    }
    views.forEach(function (mv) {
      var h = mv.hl;
      mv.div.setAttribute('data-loaded', String(h.load.length));
      mv.div.setAttribute('data-stored', String(h.store.length));
      mv.div.setAttribute('data-faulted', String(h.fault.length));
      if (!mv.cmp) { tot.load += h.load.length; tot.store += h.store.length; tot.fault += h.fault.length; }
      drawMap(mv);
    });
    var L = cur.L, note = '';
    if (P && P.cut && !runs) note = ' (not recorded: the page keeps the accesses of the programs run before its limit)';
    if (info) info.textContent = progText(L, picked) + ': ' + plural(tot.load, 'cell') + ' loaded, ' + plural(tot.store, 'cell') + ' stored' + (tot.fault ? ', ' + plural(tot.fault, 'cell') + ' out of bounds' : '') + note;
  }

  function pick(p) {
    if (!cur) return;
    var N = cur.L.nprograms;
    if (p !== -1) p = Math.max(0, Math.min(N - 1, p | 0));
    picked = p;
    if (cur.pinput) cur.pinput.value = p >= 0 ? String(p) : '';
    highlight();
  }

  function picker(L) {
    var input = el('input', { type: 'number', min: '0', max: String(L.nprograms - 1), id: 'program', placeholder: 'program', 'aria-label': 'program id' });
    input.addEventListener('input', function () { if (input.value !== '') pick(parseInt(input.value, 10)); });
    var info = el('span', { cls: 'pinfo', id: 'pinfo' });
    cur.pinput = input; cur.pinfo = info;
    var sec = el('section', { cls: 'picker', id: 'picker' }, [
      el('b', { text: 'Program' }),
      el('button', { id: 'prev', title: 'previous program (←)', text: '◀', onclick: function () { pick(picked > 0 ? picked - 1 : 0); } }),
      input,
      el('button', { id: 'next', title: 'next program (→)', text: '▶', onclick: function () { pick(picked < 0 ? 0 : picked + 1); } }),
      el('button', { id: 'clear', text: 'all', title: 'show every program', onclick: function () { pick(-1); } }),
      info]);
    return sec;
  }

  document.addEventListener('keydown', function (ev) {
    if (!cur || ev.target && ev.target.tagName === 'INPUT') return;
    if (ev.key === 'ArrowRight') pick(picked < 0 ? 0 : picked + 1);
    else if (ev.key === 'ArrowLeft') pick(picked > 0 ? picked - 1 : 0);
    else if (ev.key === 'Escape') pick(-1);
  });

  function selectReport(i) {
    var L = cur.L, r = L.reports[i];
    Array.prototype.forEach.call(document.querySelectorAll('ol.reports li'), function (li) { li.classList.toggle('sel', li.getAttribute('data-report') === String(i)); });
    unhl();
    if (r.at) { hlLoc(r.at); var ln = document.getElementById('L' + r.at.file + '-' + r.at.line); if (ln && ln.scrollIntoView) ln.scrollIntoView({ block: 'nearest' }); }
    if (r.map !== null && r.map !== undefined) {
      var m = cur.maps[r.map];
      flash = { map: r.map, cmp: false, cell: cellOfElem(m, r.element) };
      var p = r.program, gx = Math.max(L.grid[0], 1), gy = Math.max(L.grid[1], 1);
      pick(p[0] + gx * (p[1] + gy * p[2]));
      var mv = cur.views.filter(function (v) { return v.idx === r.map && !v.cmp; })[0];
      if (mv && mv.div.scrollIntoView) mv.div.scrollIntoView({ block: 'nearest' });
    }
  }

  // ---- a launch ---------------------------------------------------------------
  function showLaunch(k) {
    var L = DATA.launches[k];
    var main = document.getElementById('launch');
    main.textContent = '';
    picked = -1; flash = null;
    cur = { L: L, k: k, maps: [], views: [], progs: null };
    NPROG = L.nprograms;
    wCache.clear();
    rCache.clear();
    document.body.setAttribute('data-launch', String(k));
    document.body.setAttribute('data-ready', '0');
    T.ready = false;
    Array.prototype.forEach.call(document.querySelectorAll('nav.launches button'), function (b) { b.classList.toggle('sel', b.getAttribute('data-launch') === String(k)); });
    main.appendChild(summary(L));
    if (L.dropped) {
      main.appendChild(el('p', { cls: 'dropped', text: 'This launch kept only its summary (the page holds the maps of ' + DATA.max_launches + ' launches).' }));
      document.body.setAttribute('data-ready', '1');
      T.ready = true;
      return Promise.resolve();
    }
    if (L.reduced) main.appendChild(el('div', { cls: 'banner', id: 'reduced', text: 'Large tensors are reduced: each map has at most ' + DATA.max_cells.toLocaleString('en') + ' cells, a cell stands for a block of elements and keeps their worst state.' }));
    var cols = el('div', { cls: 'cols' });
    var left = el('div', { cls: 'left' }, [reports(L), source(L)]);
    var right = el('div', { cls: 'right' });
    cols.appendChild(left); cols.appendChild(right);
    main.appendChild(cols);
    right.appendChild(picker(L));
    var mapsSec = el('section', { cls: 'maps', id: 'maps' }, [el('h2', { text: 'Tensors' }), legend(L)]);
    right.appendChild(mapsSec);
    var cmpSec = null;
    if (L.other) { cmpSec = el('section', { cls: 'maps', id: 'errors' }, [el('h2', { text: 'Error against ' + L.other })]); right.insertBefore(cmpSec, mapsSec); }
    var myK = k;
    var jobs = L.maps.map(function (M) {
      var keys = ['st', 'wp', 'rp', 'wl', 'rl', 'val'].concat(M.off ? ['off'] : [], M.xp ? ['xp'] : []);
      return decodeAll(M, keys).then(function (arr) {
        var m = Object.assign({}, M, arr);
        if (M.cmp) return decodeAll(M.cmp, ['dst', 'err', 'ref', 'got', 'dw', 'dl'].concat(M.cmp.off ? ['off'] : [])).then(function (c) {
          m.cmp = Object.assign({}, M.cmp, c);
          var mx = 0;
          for (var i = 0; i < c.err.length; i++) if (isFinite(c.err[i]) && c.err[i] > mx) mx = c.err[i];
          m.cmp.maxErr = mx;
          return m;
        });
        return m;
      });
    });
    var pj = decodeAll(L.progs, ['pp', 'po', 'rk', 'rs', 'rn']);
    return Promise.all([Promise.all(jobs), pj]).then(function (res) {
      if (!cur || cur.k !== myK) return;
      cur.maps = res[0];
      cur.progs = Object.assign({}, L.progs, res[1]);
      cur.maps.forEach(function (m, i) {
        if (m.cmp && cmpSec) { var v = { m: m, idx: i, cmp: true }; cur.views.push(v); makeMap(L, v, cmpSec); }
      });
      cur.maps.forEach(function (m, i) { var v = { m: m, idx: i, cmp: false }; cur.views.push(v); makeMap(L, v, mapsSec); });
      if (!cur.maps.length) mapsSec.appendChild(el('p', { cls: 'none', text: 'The launch has no tensor arguments.' }));
      var hp = /program=(\d+)/.exec(location.hash);
      if (hp) pick(parseInt(hp[1], 10)); else highlight();
      document.body.setAttribute('data-ready', '1');
      T.ready = true;
      T.readyAt = performance.now();
    });
  }

  // ---- test hooks -------------------------------------------------------------
  T.pick = function (p) { pick(p); return picked; };
  T.showLaunch = function (k) { return showLaunch(k); };
  // the centre of the cell holding element e of map `map` in client coordinates (null: not drawn)
  T.cellCenter = function (map, e, cmp) {
    var mv = cur.views.filter(function (v) { return v.idx === map && !!v.cmp === !!cmp; })[0];
    if (!mv) return null;
    var k = cellOfElem(mv.m, e);
    if (k < 0) return null;
    mv.div.scrollIntoView({ block: 'center' });
    var r = mv.canvas.getBoundingClientRect();
    return { x: r.left + (k % mv.m.ccols) * mv.g.cs + mv.g.cs / 2, y: r.top + Math.floor(k / mv.m.ccols) * mv.g.ch + mv.g.ch / 2 };
  };

  header();
  if (!DATA.launches.length) {
    document.getElementById('launch').appendChild(el('p', { cls: 'none', text: 'No launch ran.' }));
    document.body.setAttribute('data-ready', '1');
    T.ready = true;
    return;
  }
  var hl = /launch=(\d+)/.exec(location.hash);
  showLaunch(hl ? Math.min(parseInt(hl[1], 10), DATA.launches.length - 1) : 0)
    .catch(function (e) { T.errors.push(String(e && e.stack || e)); document.body.setAttribute('data-errors', String(T.errors.length)); throw e; });
})();
