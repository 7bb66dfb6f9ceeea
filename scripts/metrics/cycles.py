"""Module-level import cycles: edges `crate::X` / `super::X` between the top-level folders of src/ and
between the submodules of the runtime's folders (SPLIT); prints the edges in cycles and the simple cycles."""
import re,os,sys,itertools
TOP={'syntax','ir','analysis','ad','exec','engine','mex','diag','prim','value','primitives','host'}
SPLIT={'exec','value','host','ad'}  # primitives/ is one node: the records share helpers, as when it sat in exec
def modpath(p):
    parts=p[len('src/'):-3].split('/')
    if parts[-1]=='mod' : parts=parts[:-1]
    if parts==['lib']: parts=[]
    return parts
def node(path):
    # granularity: top folder; inside a SPLIT folder, folder/<sub>
    if not path or path[0] not in TOP: return None
    if path[0] in SPLIT and len(path)>1: return path[0]+'/'+path[1]
    return path[0]
def expand(rest):
    # rest: text after 'X::' possibly '{a, b::c}' or 'a::b'
    rest=rest.strip()
    if rest.startswith('{'):
        depth=0;cur='';out=[]
        for c in rest[1:]:
            if c=='{': depth+=1
            if c=='}':
                if depth==0: out.append(cur); break
                depth-=1
            if c==',' and depth==0: out.append(cur); cur=''; continue
            cur+=c
        return [o.strip().split('::') for o in out if o.strip()]
    m=re.match(r'[\w:]+',rest)
    return [m.group(0).split('::')] if m else []
edges={}
for root,_,files in os.walk('src'):
    for f in files:
        if not f.endswith('.rs'): continue
        p=os.path.join(root,f); me=modpath(p); src=node(me)
        if src is None: continue
        text=open(p).read()
        # join `use` statements spread over lines
        lines=[l for l in text.split('\n') if not l.strip().startswith('//')]
        text=' '.join(l.split(' //')[0] for l in lines)
        for m in re.finditer(r'\b((?:crate|super)(?:::super)*)::',text):
            head=m.group(1).split('::')
            if head[0]=='crate': base=[]
            else:
                base=list(me) if f=='mod.rs' or p.endswith('lib.rs') else list(me)
                # super from module M refers to parent of M
                base=base[:len(base)-len(head)]
            for tail in expand(text[m.end():]):
                full=base+[t for t in tail if t and t!='self']
                dst=node(full)
                if dst and dst!=src and not (src.startswith(dst+'/')) :
                    if dst=='exec' and src!='exec' and len(full)>1: pass
                    edges.setdefault((src,dst),[]).append(p)

def simple_cycles(E):
    nodes=sorted({a for a,b in E}|{b for a,b in E}); adj={n:set() for n in nodes}
    for a,b in E: adj[a].add(b)
    idx={n:i for i,n in enumerate(nodes)}; out=[]
    def dfs(start,v,path,seen):
        for w in sorted(adj[v]):
            if w==start: out.append(path[:])
            elif idx[w]>idx[start] and w not in seen:
                seen.add(w); path.append(w); dfs(start,w,path,seen); path.pop(); seen.discard(w)
    for s in nodes: dfs(s,s,[s],{s})
    return out
top={}
for (a,b),fs in edges.items():
    a2,b2=a.split('/')[0],b.split('/')[0]
    if a2!=b2: top.setdefault((a2,b2),[]).extend(fs)
sub={k:v for k,v in edges.items() if '/' in k[0] and k[0].split('/')[0]==k[1].split('/')[0]}
verbose='-v' in sys.argv
for title,E in (('top-level folders',top),('submodules within '+', '.join(sorted(SPLIT)),sub)):
    cs=simple_cycles(E)
    print(f'{title}: {len(E)} edges, {len(cs)} simple cycles')
    for c in cs:
        print('  '+' -> '.join(c+[c[0]]))
        if verbose:
            for a,b in zip(c,c[1:]+[c[0]]): print('     ',a,'->',b,sorted(set(E[(a,b)]))[:5])
# Mixed granularity: the SPLIT folders split into their submodules, the other folders whole.
def sccs(E):
    nodes=sorted({a for a,b in E}|{b for a,b in E}); adj={n:[] for n in nodes}
    for a,b in E: adj[a].append(b)
    index={};low={};st=[];on=set();out=[];c=[0]
    def strong(v):
        index[v]=low[v]=c[0];c[0]+=1;st.append(v);on.add(v)
        for w in adj[v]:
            if w not in index: strong(w);low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],index[w])
        if low[v]==index[v]:
            comp=[]
            while True:
                w=st.pop();on.discard(w);comp.append(w)
                if w==v: break
            if len(comp)>1: out.append(sorted(comp))
    for v in nodes:
        if v not in index: strong(v)
    return out
mixed={k:v for k,v in edges.items() if not (k[0] in SPLIT or k[1] in SPLIT)}
comps=sccs(mixed)
cs=simple_cycles(mixed)
print(f'pipeline with {", ".join(sorted(SPLIT))} split into their submodules: {len(mixed)} edges, {len(cs)} simple cycles, strongly connected groups: {comps}')
if verbose:
    for comp in comps:
        for (a,b),fs in sorted(mixed.items()):
            if a in comp and b in comp: print('     ',a,'->',b,sorted(set(fs))[:4])
