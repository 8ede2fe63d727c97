// Draws the report's charts with uPlot from the JSON block written by HtmlReport, then notes on
// each chart element how many pixels it painted (a blank chart is a bug a test can see).
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  // As wide as the page allows (an 800 px window has no room for 920), never wider.
  var WIDTH = Math.min(920, Math.max(320, document.body.clientWidth - 8)), HEIGHT = 300;
  var COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948'];

  function indices(n) {
    var xs = [];
    for (var i = 0; i < n; i++) xs.push(i);
    return xs;
  }

  // A vertical axis as wide as its longest tick value plus the gap, so its title never sits on
  // the numbers (uPlot's fixed default is too narrow for "17,000" or "1.2M").
  function fit(u, values, axisIdx, cycleNum) {
    var axis = u.axes[axisIdx];
    if (cycleNum > 1) return axis._size;
    var longest = '';
    (values || []).forEach(function (v) { if (v != null && String(v).length > longest.length) longest = String(v); });
    u.ctx.save();
    u.ctx.font = axis.font[0];
    var w = u.ctx.measureText(longest).width / devicePixelRatio;
    u.ctx.restore();
    return Math.ceil(axis.ticks.size + axis.gap + w + 8);
  }

  function bars() {
    return uPlot.paths.bars({ size: [0.8, 60] });
  }

  // Vertical lines over the plot: dashed marks and solid percentile lines, each labelled. Lines at
  // the same place share one label ("p50/p90 5ms": percentiles often coincide on few frames), and
  // labels go right of their line (left when the plot ends first), each in the first row where it
  // touches no other label. The labels' boxes are noted on the chart (data-labels, CSS pixels
  // within the canvas; data-plot, the plot area) so a test can see canvas text as well as the DOM's.
  function lines(marks) {
    return function (u) {
      var ctx = u.ctx, dpr = devicePixelRatio, top = u.bbox.top, bottom = u.bbox.top + u.bbox.height;
      var left = u.bbox.left, right = u.bbox.left + u.bbox.width;
      var groups = [];
      marks.forEach(function (m) {
        var x = Math.round(u.valToPos(m.x, 'x', true));
        // Out of the scale's range (a percentile of no frames is Android's top bucket): not drawn.
        if (x < left || x > right) return;
        var same = groups.filter(function (g) { return g.x === x && g.color === m.color && g.dashed === m.dashed; })[0];
        if (same) {
          same.names.push(m.name);
        } else {
          groups.push({ x: x, color: m.color, dashed: m.dashed, names: [m.name], value: m.value });
        }
      });
      ctx.save();
      // uPlot leaves the context as its last axis used it (right-aligned): set what the labels need.
      ctx.font = Math.round(11 * dpr) + 'px sans-serif';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'alphabetic';
      var rows = [], boxes = [];
      groups.forEach(function (g) {
        ctx.strokeStyle = g.color;
        ctx.lineWidth = dpr;
        ctx.setLineDash(g.dashed ? [5 * dpr, 4 * dpr] : []);
        ctx.beginPath();
        ctx.moveTo(g.x, top);
        ctx.lineTo(g.x, bottom);
        ctx.stroke();
        var text = g.names.join('/') + (g.value ? ' ' + g.value : '');
        var metrics = ctx.measureText(text), w = metrics.width;
        var x0 = g.x + 3 * dpr;
        if (x0 + w > right) x0 = g.x - 3 * dpr - w;
        x0 = Math.max(left, x0);
        var row = 0;
        while ((rows[row] || []).some(function (r) { return x0 < r[1] + 4 * dpr && r[0] < x0 + w + 4 * dpr; })) row++;
        (rows[row] = rows[row] || []).push([x0, x0 + w]);
        var y = top + (12 + 13 * row) * dpr;
        ctx.fillStyle = g.color;
        ctx.fillText(text, x0, y);
        boxes.push([text, x0 / dpr, (y - metrics.actualBoundingBoxAscent) / dpr, (x0 + w) / dpr,
          (y + metrics.actualBoundingBoxDescent) / dpr]);
      });
      ctx.restore();
      u.root.parentNode.setAttribute('data-labels', JSON.stringify(boxes));
      u.root.parentNode.setAttribute('data-plot', JSON.stringify([left / dpr, top / dpr, right / dpr, bottom / dpr]));
    };
  }

  function histogram(el, h, marks, name) {
    // Up to the last bucket with frames (and past the marks), so the shape is not lost in empty buckets.
    var last = 0;
    h.counts.forEach(function (c, i) { if (c > 0) last = i; });
    marks.forEach(function (m) { last = Math.max(last, Math.ceil(m.x)); });
    var n = Math.min(h.counts.length, last + 2);
    var all = marks.map(function (m) { return { x: m.x, name: m.label, dashed: true, color: '#888' }; });
    h.percentiles.forEach(function (p) {
      if (p.x >= 0) all.push({ x: p.x, name: 'p' + p.p, value: p.ms + 'ms', dashed: false, color: '#c0392b' });
    });
    return new uPlot({
      width: WIDTH, height: HEIGHT,
      scales: { x: { time: false, range: [-0.5, n - 0.5] } },
      legend: { show: true },
      axes: [
        { label: name + ' (ms, bucket label)', values: function (u, splits) {
          return splits.map(function (v) { return Number.isInteger(v) && v < n ? h.labels[v] : ''; });
        } },
        { label: 'frames', size: fit }
      ],
      series: [
        { label: 'bucket', value: function (u, v) { return v == null ? '' : h.labels[v] + 'ms'; } },
        { label: 'frames', fill: 'rgba(78,121,167,0.55)', stroke: '#4e79a7', paths: bars(), points: { show: false } }
      ],
      hooks: { draw: [lines(all)] }
    }, [indices(n), h.counts.slice(0, n)], el);
  }

  // Nothing drawn for longer than this between two frames (an idle app, a window shown later): the
  // line breaks there, since a line across the pause would suggest frames that never were.
  var PAUSE_SECONDS = 1;

  // Each frame's time over the capture's time, janky frames marked by cause, the refresh interval
  // dashed; uPlot zooms on a horizontal drag and zooms out on a double click.
  function frameTimes(el, f) {
    // pause[i]: frame i began more than PAUSE_SECONDS after frame i-1 ended. A frame's start is its
    // end less its time, so one long frame is not taken for a pause before it.
    var pause = f.t.map(function (t, i) { return i > 0 && t - f.ms[i] / 1000 - f.t[i - 1] > PAUSE_SECONDS; });
    var few = f.t.length < 200;
    var series = [
      { label: 'time', value: function (u, v) { return v == null ? '' : v.toFixed(3) + ' s'; } },
      { label: 'frame time', stroke: '#4e79a7', width: 2,
        // uPlot clips these pixel spans out of the line. Each starts a pixel right of the frame
        // before the pause: frames that share that pixel column keep their (vertical) line.
        gaps: function (u, sidx, idx0, idx1, nullGaps) {
          var gaps = nullGaps.slice();
          for (var i = Math.max(idx0, 1); i <= idx1; i++) {
            if (pause[i]) {
              uPlot.addGap(gaps, Math.round(u.valToPos(f.t[i - 1], 'x', true)) + 1, Math.round(u.valToPos(f.t[i], 'x', true)));
            }
          }
          return gaps.sort(function (a, b) { return a[0] - b[0]; });
        },
        // A short trace has a few frames: a dot per frame, or they are hard to see. Else a dot only
        // for a frame alone between two pauses, which has no line to show it.
        points: { show: few, size: 6, fill: '#4e79a7', stroke: '#4e79a7',
          filter: function (u, sidx, show) {
            if (show) return null;
            var alone = [];
            for (var i = 0; i < f.t.length; i++) {
              if ((i === 0 || pause[i]) && (i === f.t.length - 1 || pause[i + 1])) alone.push(i);
            }
            return alone.length ? alone : null;
          } },
        value: function (u, v) { return v == null ? '' : v.toFixed(2) + ' ms'; } }
    ];
    var columns = [f.t, f.ms];
    f.marks.forEach(function (m, k) {
      series.push({ label: m.name, stroke: m.color, fill: m.color, paths: function () { return null; },
        points: { show: true, size: 7, fill: m.color, stroke: m.color },
        value: function (u, v) { return v == null ? '' : v.toFixed(2) + ' ms'; } });
      columns.push(m.values);
    });
    var refresh = function (u) {
      var y = Math.round(u.valToPos(f.refreshMs, 'y', true));
      var ctx = u.ctx;
      ctx.save();
      ctx.strokeStyle = '#888';
      ctx.lineWidth = devicePixelRatio;
      ctx.setLineDash([5 * devicePixelRatio, 4 * devicePixelRatio]);
      ctx.beginPath();
      ctx.moveTo(u.bbox.left, y);
      ctx.lineTo(u.bbox.left + u.bbox.width, y);
      ctx.stroke();
      ctx.restore();
    };
    return new uPlot({
      width: WIDTH, height: HEIGHT,
      scales: { x: { time: false }, y: { range: function (u, lo, hi) { return [0, Math.max(hi, f.refreshMs) * 1.05]; } } },
      cursor: { drag: { x: true, y: false } },
      axes: [{ label: 'seconds since the first frame' }, { label: 'frame time (ms)', size: fit }],
      series: series,
      hooks: {
        draw: [refresh],
        // A capture can hold a few frames from long before the rest: open on the latest 98 % of
        // the frames when they span less than half the time (a double click shows every frame).
        ready: [function (u) {
          var n = f.t.length;
          if (n < 50) return;
          var lo = f.t[Math.floor(n * 0.02)], hi = f.t[n - 1];
          // After uPlot's own first sizing, which would otherwise put the full range back.
          if (hi - lo < 0.5 * (hi - f.t[0])) setTimeout(function () { u.setScale('x', { min: lo, max: hi }); }, 0);
        }]
      }
    }, columns, el);
  }

  // Janky frames, then how many of them had each cause: one bar each, the summary's numbers.
  function causes(el, d) {
    var n = d.labels.length;
    return new uPlot({
      width: WIDTH, height: HEIGHT,
      scales: { x: { time: false, range: [-0.5, n - 0.5] } },
      axes: [
        { values: function (u, s) { return s.map(function (v) { return Number.isInteger(v) ? d.labels[v] : ''; }); } },
        { label: 'frames', size: fit }
      ],
      series: [
        { label: 'what', value: function (u, v) { return v == null ? '' : d.labels[v]; } },
        // Each cause's bar in that cause's colour, the one its marks have in the frame chart.
        { label: 'frames', fill: '#3d5a80', stroke: '#3d5a80', points: { show: false },
          paths: uPlot.paths.bars({ size: [0.8, 60], disp: {
            fill: { unit: 3, values: function () { return d.colors; } },
            stroke: { unit: 3, values: function () { return d.colors; } } } }) }
      ]
    }, [indices(n), d.values], el);
  }

  // Stacked bars: series k is the sum of the first k+1 parts, drawn from the tallest down so each
  // shows its band; the legend shows each part's own value.
  function stacked(el, labels, parts, xLabel, yLabel, tilted) {
    var d = { labels: labels, causes: parts };
    var n = d.labels.length;
    // Stacked: series k is the sum of causes 0..k, drawn from the tallest down so each shows its band.
    var sums = [], acc = new Array(n).fill(0);
    d.causes.forEach(function (c) {
      acc = acc.map(function (v, i) { return v + c.values[i]; });
      sums.push(acc.slice());
    });
    var series = [{ label: xLabel, value: function (u, v) { return v == null ? '' : d.labels[v]; } }];
    var columns = [indices(n)];
    for (var k = d.causes.length - 1; k >= 0; k--) {
      (function (k) {
        series.push({
          label: d.causes[k].name, fill: d.causes[k].color || COLORS[k % COLORS.length],
          stroke: d.causes[k].color || COLORS[k % COLORS.length],
          paths: bars(), points: { show: false },
          value: function (u, v, s, i) { return i == null ? '' : d.causes[k].values[i]; }
        });
      })(k);
      columns.push(sums[k]);
    }
    var opts = {
      width: WIDTH, height: tilted ? HEIGHT + 90 : HEIGHT,
      // Bars are read from zero: an axis starting at 215 makes 215 and 237 look like 1 and 20.
      scales: { x: { time: false, range: [-0.5, n - 0.5] }, y: { range: function (u, lo, hi) { return [0, Math.max(1, hi * 1.05)]; } } },
      axes: [
        { label: xLabel, values: function (u, s) { return s.map(function (v) { return Number.isInteger(v) ? d.labels[v] : ''; }); },
          // Long category names (FrameTimeline's types) would overlap when level: tilted, with room below.
          rotate: tilted ? -30 : 0, size: tilted ? 130 : 50 },
        { label: yLabel, size: fit }
      ],
      series: series
    };
    if (tilted) {
      opts.padding = [null, 80, null, null]; // the last tilted label runs right of its bar
    }
    return new uPlot(opts, columns, el);
  }

  function days(el, d) {
    var n = d.labels.length;
    return new uPlot({
      width: WIDTH, height: HEIGHT,
      scales: { x: { time: false, range: [-0.5, n - 0.5] }, pct: { range: function (u, lo, hi) { return [0, Math.max(5, hi * 1.2)]; } } },
      axes: [
        { label: 'day (UTC)', values: function (u, s) { return s.map(function (v) { return Number.isInteger(v) ? d.labels[v] : ''; }); } },
        { label: 'frames', size: fit },
        { scale: 'pct', side: 1, label: 'janky %', grid: { show: false }, size: fit }
      ],
      series: [
        { label: 'day', value: function (u, v) { return v == null ? '' : d.labels[v]; } },
        { label: 'frames', fill: 'rgba(89,161,79,0.5)', stroke: '#59a14f', paths: bars(), points: { show: false } },
        { label: 'janky %', scale: 'pct', stroke: '#e15759', width: 2, points: { show: true, size: 8, fill: '#e15759' } }
      ]
    }, [indices(n), d.frames, d.jankPercent], el);
  }

  function colouredAt(px, w, i) {
    var k = i * 4;
    if (px[k + 3] === 0) return false;
    return Math.max(px[k], px[k + 1], px[k + 2]) - Math.min(px[k], px[k + 1], px[k + 2]) > 40;
  }

  // What a chart painted, noted on its element for tests: painted pixels, and of those the coloured
  // ones (axes, grid and text are grey, the data coloured); and, the stronger measure, how many of
  // its non-zero data points fall in the plot (data-points) and how many of those have a coloured
  // pixel within 2 px (data-points-painted): a line, bar top or dot. Pixel counts alone cannot tell
  // a chart whose points are all drawn from one that lost some, nor need they be large.
  function painted(el, u) {
    var n = 0, coloured = 0;
    var c = u.ctx.canvas, w = c.width, h = c.height;
    var px = u.ctx.getImageData(0, 0, w, h).data;
    for (var i = 0; i < px.length; i += 4) {
      if (px[i + 3] === 0) continue;
      n++;
      if (colouredAt(px, w, i / 4)) coloured++;
    }
    var points = 0, hit = 0, b = u.bbox, xs = u.data[0];
    for (var s = 1; s < u.series.length; s++) {
      if (!u.series[s].show) continue;
      var ys = u.data[s];
      for (var j = 0; j < xs.length; j++) {
        if (ys[j] == null || ys[j] === 0) continue;
        var x = Math.round(u.valToPos(xs[j], 'x', true)), y = Math.round(u.valToPos(ys[j], u.series[s].scale, true));
        if (x < b.left || x > b.left + b.width || y < b.top || y > b.top + b.height) continue;
        points++;
        var found = false;
        for (var dy = -2; dy <= 2 && !found; dy++) {
          for (var dx = -2; dx <= 2 && !found; dx++) {
            var xx = x + dx, yy = y + dy;
            found = xx >= 0 && yy >= 0 && xx < w && yy < h && colouredAt(px, w, yy * w + xx);
          }
        }
        if (found) hit++;
      }
    }
    el.setAttribute('data-painted-pixels', String(n));
    el.setAttribute('data-coloured-pixels', String(coloured));
    el.setAttribute('data-points', String(points));
    el.setAttribute('data-points-painted', String(hit));
  }

  var charts = [
    ['chart-frames', function (el) { return frameTimes(el, data.frames); }],
    ['chart-cpu', function (el) { return histogram(el, data.cpu, data.cpu.marks, 'frame time'); }],
    ['chart-causes', function (el) { return causes(el, data.causes); }],
    ['chart-days', function (el) { return days(el, data.days); }],
    ['chart-gpu', function (el) { return histogram(el, data.gpu, [], 'GPU time'); }],
    // Scene names are long: tilted, so neighbours never run into each other.
    ['chart-scenes', function (el) { return stacked(el, data.scenes.labels, data.scenes.levels, 'scene', 'frames by Matrix level', true); }],
    ['chart-frametimeline', function (el) { return stacked(el, data.frameTimeline.labels, data.frameTimeline.parts, 'FrameTimeline type', 'frames', true); }]
  ];
  charts.forEach(function (c) {
    var el = document.getElementById(c[0]);
    if (!el) return; // a chart the data has nothing for (no scenes, no FrameTimeline)
    var u = c[1](el);
    // uPlot draws in a microtask queued by the constructor; this one runs after it.
    Promise.resolve().then(function () { painted(el, u); });
  });
  Promise.resolve().then(function () { document.documentElement.setAttribute('data-charts', 'drawn'); });
})();
