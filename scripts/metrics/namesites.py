"""Sites that pick a rule by a primitive's name string: a match arm or comparison on a string literal that is
a primitive's name, outside the resolver (src/prim.rs) and the front end (syntax/, ir/lower.rs's resolution)."""
import re,os,sys
names=set(re.findall(r'^\s+\w+ = "([^"]+)",',open('src/prim.rs').read(),re.M))
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
