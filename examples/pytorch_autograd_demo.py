import microtorch as torch
import microtorch.nn as nn

# --- Tensor basics ---
x = torch.tensor([2.0, 3.0], requires_grad=True)
y = (x[0] + x[1]) * x[0]
y.backward()
print("autograd gradient:", x.grad)  # should match [2*x0+x1, x0] = [7, 2]

# --- Verify against the hand-derived analytic gradient from Calculus and Gradients ---
def analytic_grad(x_vals):
    return torch.tensor([2 * x_vals[0] + x_vals[1], x_vals[0]])
print("hand-derived gradient:", analytic_grad(x.detach()))

# --- The backprop page's 2-layer network, reimplemented ---
class TwoLayerNet(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        h = torch.sigmoid(self.fc1(x))
        return torch.sigmoid(self.fc2(h))

torch.manual_seed(0)
net = TwoLayerNet(5, 8, 1)
X = torch.randn(200, 5)
y_target = (X.sum(dim=1, keepdim=True) > 0).float()

optimizer = torch.optim.SGD(net.parameters(), lr=1.0)
for step in range(2000):
    optimizer.zero_grad()  # required - grads accumulate otherwise
    pred = net(X)
    loss = ((pred - y_target) ** 2).mean()
    loss.backward()
    optimizer.step()
    if step % 1000 == 0:
        print(f"step {step}: loss={loss.item():.4f}")

# --- The missing zero_grad() bug, demonstrated ---
net2 = TwoLayerNet(5, 8, 1)
optimizer2 = torch.optim.SGD(net2.parameters(), lr=1.0)
losses_no_zero_grad = []
for step in range(50):
    pred = net2(X)
    loss = ((pred - y_target) ** 2).mean()
    loss.backward()  # missing optimizer2.zero_grad() before this
    optimizer2.step()
    losses_no_zero_grad.append(loss.item())
print("\nwithout zero_grad(), loss over first 5 steps:", [f"{l:.3f}" for l in losses_no_zero_grad[:5]],
      "\n  <- gradients accumulate across steps, producing an incorrect, growing effective update")
