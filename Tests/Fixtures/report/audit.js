// Injected by ReportCLITests into a copy of a review page shown in a 390 px iframe in headless
// Chromium: measures, in the real layout, what a phone user and a keyboard or screen-reader user
// meet (horizontal overflow, WCAG contrast of every text element, controls without an accessible
// name or out of the tab order, the filter taking focus), and hands the result to the parent page.
(function(){
  function rgba(s){var m=s.match(/rgba?\(([^)]+)\)/);if(!m)return null;var p=m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);return [p[0],p[1],p[2],p.length>3?p[3]:1];}
  function lum(c){var a=c.slice(0,3).map(function(v){v/=255;return v<=0.03928?v/12.92:Math.pow((v+0.055)/1.055,2.4);});return 0.2126*a[0]+0.7152*a[1]+0.0722*a[2];}
  function over(top,under){var a=top[3];return [top[0]*a+under[0]*(1-a),top[1]*a+under[1]*(1-a),top[2]*a+under[2]*(1-a),1];}
  function background(el){var layers=[];for(var e=el;e&&e.nodeType===1;e=e.parentElement){var c=rgba(getComputedStyle(e).backgroundColor);if(c&&c[3]>0){layers.push(c);if(c[3]>=1)break;}}
    var base=[255,255,255,1];for(var i=layers.length-1;i>=0;i--)base=over(layers[i],base);return base;}
  // Background images (the page scans) are not looked through: text is never drawn over them.
  var r={innerWidth:innerWidth,scrollWidth:document.documentElement.scrollWidth,wide:[],lowContrast:[],unlabelled:[],unfocusable:[],minContrast:99,textElements:0};
  var all=document.body.querySelectorAll('*');
  all.forEach(function(el){
    var cs=getComputedStyle(el);if(cs.display==='none'||cs.visibility==='hidden')return;
    var box=el.getBoundingClientRect();
    // Wider than the viewport and not inside a scrolling box of its own.
    if(box.right>innerWidth+1){var p=el.parentElement,clipped=false;for(;p;p=p.parentElement){var o=getComputedStyle(p).overflowX;if(o==='auto'||o==='scroll'||o==='hidden'){clipped=true;break;}}
      if(!clipped&&r.wide.length<10)r.wide.push(el.tagName+'.'+el.className+' right='+Math.round(box.right));}
    var own=Array.prototype.some.call(el.childNodes,function(n){return n.nodeType===3&&n.textContent.trim()!=='';});
    if(own&&box.width>0&&box.height>0){r.textElements++;
      var fg=rgba(cs.color),bg=background(el);if(!fg){r.unparsedColours=(r.unparsedColours||0)+1;return;}fg=over(fg,bg);var l1=lum(fg),l2=lum(bg),ratio=(Math.max(l1,l2)+0.05)/(Math.min(l1,l2)+0.05);
      var size=parseFloat(cs.fontSize),bold=parseInt(cs.fontWeight,10)>=700,large=size>=24||(bold&&size>=18.66);
      if(ratio<r.minContrast)r.minContrast=ratio;
      if(ratio<(large?3:4.5)&&r.lowContrast.length<10)r.lowContrast.push(el.tagName+'.'+el.className+' '+ratio.toFixed(2)+' "'+el.textContent.trim().slice(0,30)+'"');}
  });
  document.querySelectorAll('select,input,button,textarea,audio[controls],a[href]').forEach(function(el){
    var name=(el.labels&&el.labels.length)||el.getAttribute('aria-label')||el.getAttribute('aria-labelledby')||(el.tagName==='A'||el.tagName==='BUTTON')&&el.textContent.trim();
    if(!name)r.unlabelled.push(el.tagName+'#'+el.id);
    if(el.tabIndex<0)r.unfocusable.push(el.tagName+'#'+el.id);});
  document.querySelectorAll('[role=img]').forEach(function(el){if(!el.getAttribute('aria-label'))r.unlabelled.push('role=img '+el.className);});
  document.querySelectorAll('img').forEach(function(el){if(!el.hasAttribute('alt'))r.unlabelled.push('img');});
  r.positiveTabindex=document.querySelectorAll('[tabindex]:not([tabindex="0"]):not([tabindex="-1"])').length;
  var s=document.getElementById('filter');if(s){s.focus();r.filterFocused=document.activeElement===s;}
  var b64=btoa(unescape(encodeURIComponent(JSON.stringify(r))));document.body.setAttribute('data-audit',b64);if(parent!==window)parent.postMessage(b64,'*');
})();
