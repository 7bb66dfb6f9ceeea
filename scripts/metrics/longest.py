import re,sys,os
# longest fn bodies in src/: brace matching from a `fn` line
res=[]
for root,_,files in os.walk('src'):
    for f in files:
        if not f.endswith('.rs'): continue
        p=os.path.join(root,f); lines=open(p).read().split('\n')
        i=0
        while i<len(lines):
            l=lines[i]
            if re.match(r'\s*(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?(extern "C"\s+)?fn\s+\w+',l):
                name=re.search(r'fn\s+(\w+)',l).group(1)
                depth=0; started=False; j=i
                while j<len(lines):
                    s=re.sub(r'"(\\.|[^"\\])*"','""',lines[j]); s=re.sub(r"'(\\.|[^'\\])'","''",s); s=s.split('//')[0]
                    for c in s:
                        if c=='{': depth+=1; started=True
                        elif c=='}': depth-=1
                    if started and depth==0: break
                    if not started and s.rstrip().endswith(';'): break
                    j+=1
                res.append((j-i+1,p,name,i+1))
            i+=1
res.sort(reverse=True)
count=next((int(a) for a in sys.argv[1:] if a.isdigit()),10)
for r in res[:count]: print(*r)
