"""Sites that pick a rule by a primitive's name string: a match arm or comparison on a string literal that is
a primitive's name (declared in the records' primitive_names! blocks), outside the resolver (src/prim.rs) and the front end (syntax/, ir/lower.rs's resolution)."""
import re,os,sys
import glob
blocks=[b.split('\n}')[0] for f in glob.glob('src/primitives/**/*.rs',recursive=True) for b in open(f).read().split('primitive_names! {\n')[1:]]
names=set(n for b in blocks for n in re.findall(r'^\s+\w+ = "([^"]+)",',b,re.M))
alt='|'.join(re.escape(n) for n in sorted(names,key=len,reverse=True))
pat=re.compile(r'"(%s)"\s*(=>|\|[^|])|(==|!=)\s*"(%s)"|"(%s)"\s*(==|!=)|matches!\([^)]*"(%s)"'%(alt,alt,alt,alt))
hits=[]
for root,_,fs in os.walk('src'):
    for f in fs:
        p=os.path.join(root,f)
        if not f.endswith('.rs') or p in ('src/prim.rs',) or p.startswith('src/syntax'): continue
        for i,l in enumerate(open(p),1):
            if l.strip().startswith('//'): continue
            if pat.search(l): hits.append(f'{p}:{i}: {l.strip()[:110]}')
print(len(hits))
if '-v' in sys.argv: print('\n'.join(hits))
